import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createCompany } from "../../accounting/test-support.js";
import { createContact, expectStatus } from "../../documents/test-support.js";
import { createBankAccount, IBANS, treasuryFixture } from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof treasuryFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await treasuryFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const url = "/api/treasury/budgets";
interface Budget {
  id: string;
  company_id: string;
  category: string;
  amount: string;
  recurrence: string;
  until: string | null;
  contact_id: string | null;
  bank_account_id: string | null;
}
const call = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  payload?: object,
  token = t.adminToken,
) => t.as(token, { method, url: `${url}${path}`, payload });

describe("treasury budgets", () => {
  it("creates, reads, lists, updates and deletes forecast lines", async () => {
    const rent = expectStatus<Budget>(
      await call("POST", "", {
        company_id: fx.companyId,
        category: "alquiler",
        description: "Oficina",
        contact_id: fx.supplier.id,
        bank_account_id: fx.bank.id,
        date: "2026-01-05",
        amount: "-1200",
        recurrence: "monthly",
        until: "2026-12-05",
      }),
      201,
    );
    expect(rent).toMatchObject({
      amount: "-1200.00",
      recurrence: "monthly",
      until: "2026-12-05",
      contact_id: fx.supplier.id,
    });
    const taxes = expectStatus<Budget>(
      await call("POST", "", {
        company_id: fx.companyId,
        category: "impuestos",
        date: "2026-04-20",
        amount: "-3000.5",
        recurrence: "quarterly",
      }),
      201,
    );
    expect(taxes).toMatchObject({ until: null, bank_account_id: null });
    expect(expectStatus<Budget>(await call("GET", `/${rent.id}`), 200).category).toBe("alquiler");
    const list = expectStatus<{ data: Budget[]; total: number }>(
      await call("GET", `?company_id=${fx.companyId}`),
      200,
    );
    expect(list.data.map((b) => b.id)).toEqual([rent.id, taxes.id]);
    const searched = expectStatus<{ data: Budget[] }>(
      await call("GET", `?company_id=${fx.companyId}&search=ofic`),
      200,
    );
    expect(searched.data.map((b) => b.id)).toEqual([rent.id]);
    const byCategory = expectStatus<{ data: Budget[] }>(
      await call("GET", `?company_id=${fx.companyId}&category=impuestos`),
      200,
    );
    expect(byCategory.data.map((b) => b.id)).toEqual([taxes.id]);

    const once = expectStatus<Budget>(await call("PATCH", `/${rent.id}`, { recurrence: "none" }), 200);
    expect(once).toMatchObject({ recurrence: "none", until: null });
    const moved = expectStatus<Budget>(
      await call("PATCH", `/${taxes.id}`, { amount: "-2500", until: "2027-04-20" }),
      200,
    );
    expect(moved).toMatchObject({ amount: "-2500.00", until: "2027-04-20" });
    expect((await call("DELETE", `/${rent.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/${rent.id}`)).statusCode).toBe(404);
  });

  it("refuses bad lines with a 400 naming the field", async () => {
    const base = { company_id: fx.companyId, category: "nominas", date: "2026-01-28", amount: "-5000" };
    const cases: Array<[object, string]> = [
      [{ amount: "0" }, "amount"],
      [{ amount: "12.345" }, "body.amount"],
      [{ until: "2026-06-28" }, "until"],
      [{ recurrence: "monthly", until: "2025-12-31" }, "until"],
      [{ recurrence: "weekly" }, "body.recurrence"],
      [{ date: "2026-02-30" }, "body.date"],
      [{ category: "" }, "body.category"],
    ];
    for (const [change, path] of cases) {
      const res = await call("POST", "", { ...base, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(
        res.json().errors.map((e: { path: string }) => e.path),
        JSON.stringify(change),
      ).toContain(path);
    }
    const otherCompany = await createCompany(t, { name: "Budgets other" });
    const theirContact = await createContact(t, otherCompany);
    const theirBank = await createBankAccount(t, otherCompany, { iban: IBANS[2] });
    const contact = await call("POST", "", { ...base, contact_id: theirContact.id });
    expect(contact.json().errors[0].path).toBe("contact_id");
    const bank = await call("POST", "", { ...base, bank_account_id: theirBank.id });
    expect(bank.json().errors[0].path).toBe("bank_account_id");
  });

  it("keeps another company's lines out of reach", async () => {
    const line = expectStatus<Budget>(
      await call("POST", "", {
        company_id: fx.companyId,
        category: "nominas",
        date: "2026-01-28",
        amount: "-5000",
      }),
      201,
    );
    const otherCompany = await createCompany(t, { name: "Budgets other 2" });
    const u = await t.userWith(["treasury:leer", "treasury:crear", "treasury:editar", "treasury:eliminar"], {
      companyId: otherCompany,
    });
    expect((await call("GET", `/${line.id}`, undefined, u.token)).statusCode).toBe(404);
    expect((await call("PATCH", `/${line.id}`, { amount: "-1" }, u.token)).statusCode).toBe(404);
    expect((await call("DELETE", `/${line.id}`, undefined, u.token)).statusCode).toBe(404);
    expect(expectStatus<{ total: number }>(await call("GET", "", undefined, u.token), 200).total).toBe(0);
    const sneaky = await call(
      "POST",
      "",
      { company_id: fx.companyId, category: "x", date: "2026-01-01", amount: "1" },
      u.token,
    );
    expect(sneaky.statusCode).toBe(404);
    const reader = await t.userWith(["treasury:leer"]);
    expect((await call("DELETE", `/${line.id}`, undefined, reader.token)).statusCode).toBe(403);
  });
});
