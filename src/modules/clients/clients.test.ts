import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";

let t: TestApp;
let companyA: string;
let companyB: string;

const createContact = (payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "POST", url: "/api/clients", payload });
const updateContact = (id: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/clients/${id}`, payload });

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Contacts A", "B12345674");
  companyB = await t.createCompany("Contacts B", "A58818501");
});
afterAll(async () => {
  await t?.close();
});

describe("/api/clients CRUD", () => {
  it("creates, reads, updates and deactivates a contact", async () => {
    const created = await createContact({
      company_id: companyA,
      contact_type: "customer",
      name: "Reformas Norte",
      legal_name: "Reformas Norte, S.L.",
      tax_id: "b-1234567.4",
      email: "admin@reformasnorte.es",
      phone: "+34 600 000 000",
      address: "Calle Mayor 1",
      city: "Bilbao",
      postal_code: "48001",
      province: "Bizkaia",
    });
    expect(created.statusCode, created.body).toBe(201);
    const contact = created.json();
    expect(contact).toMatchObject({
      company_id: companyA,
      contact_type: "customer",
      code: "C00001",
      tax_id: "B12345674",
      country: "ES",
      payment_terms_days: 30,
      agent_id: null,
      is_active: true,
    });
    expect((await t.as(t.adminToken, { method: "GET", url: `/api/clients/${contact.id}` })).json()).toEqual(
      contact,
    );

    const updated = await updateContact(contact.id, {
      contact_type: "both",
      payment_terms_days: 60,
      email: "",
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      contact_type: "both",
      payment_terms_days: 60,
      email: "",
      code: "C00001",
    });

    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/clients/${contact.id}` })).statusCode,
    ).toBe(204);
    const hidden = await t.as(t.adminToken, { method: "GET", url: "/api/clients?search=reformas%20norte" });
    expect(hidden.json().total).toBe(0);
    const shown = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/clients?search=reformas%20norte&include_inactive=true",
    });
    expect(shown.json().data).toMatchObject([{ id: contact.id, is_active: false }]);
  });

  it("generates codes per company and skips codes typed in by hand", async () => {
    const codeOf = async (payload: Record<string, unknown>) => {
      const res = await createContact({ contact_type: "supplier", name: "Supplier", ...payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().code as string;
    };
    expect(await codeOf({ company_id: companyB })).toBe("C00001");
    expect(await codeOf({ company_id: companyB, code: "C00003" })).toBe("C00003");
    expect(await codeOf({ company_id: companyB })).toBe("C00002");
    expect(await codeOf({ company_id: companyB })).toBe("C00004");
    expect(await codeOf({ company_id: companyB, code: "PROV-7" })).toBe("PROV-7");
    expect(await codeOf({ company_id: companyB })).toBe("C00005");
    expectProblem(
      await createContact({ company_id: companyB, contact_type: "customer", name: "X", code: "C00005" }),
      409,
    );
  });

  it("hands out distinct generated codes to concurrent creations", async () => {
    const company_id = await t.createCompany("Concurrent codes", "A28015865");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createContact({ company_id, contact_type: "customer", name: `Parallel ${i}` }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const codes = results.map((r) => r.json().code as string).sort();
    expect(codes).toEqual(Array.from({ length: 12 }, (_, i) => `C${String(i + 1).padStart(5, "0")}`));
  });

  it("refuses a duplicate tax id in the company with 409, whatever its formatting", async () => {
    const first = await createContact({
      company_id: companyA,
      contact_type: "supplier",
      name: "Hierros",
      tax_id: "A28015865",
    });
    expect(first.statusCode).toBe(201);
    expectProblem(
      await createContact({
        company_id: companyA,
        contact_type: "customer",
        name: "Otro",
        tax_id: "a-28015865",
      }),
      409,
    );
    const other = await createContact({
      company_id: companyB,
      contact_type: "customer",
      name: "Hierros B",
      tax_id: "A28015865",
    });
    expect(other.statusCode).toBe(201);
    const second = (
      await createContact({ company_id: companyA, contact_type: "customer", name: "Tercero" })
    ).json();
    expectProblem(await updateContact(second.id, { tax_id: "ES A28015865" }), 409);
    expectProblem(await updateContact(second.id, { code: first.json().code }), 409);
  });

  it("validates the agent, the payment terms and the contact type", async () => {
    const agentOf = async (company_id: string, code: string, is_active = true) =>
      (
        await t.as(t.adminToken, {
          method: "POST",
          url: "/api/agents",
          payload: { company_id, code, name: code, is_active },
        })
      ).json().id as string;
    const agentA = await agentOf(companyA, "AG-A");
    const agentB = await agentOf(companyB, "AG-B");
    const retired = await agentOf(companyA, "AG-OLD", false);
    const base = { company_id: companyA, contact_type: "customer", name: "Con agente" };
    const ok = await createContact({ ...base, agent_id: agentA });
    expect(ok.json().agent_id).toBe(agentA);
    for (const agent_id of [agentB, retired, "01900000-0000-7000-8000-000000000000"]) {
      const problem = expectProblem(await createContact({ ...base, agent_id }), 400);
      expect(problem.errors?.[0].path).toBe("agent_id");
    }
    expectProblem(await updateContact(ok.json().id, { agent_id: agentB }), 400);
    expect((await updateContact(ok.json().id, { agent_id: null })).json().agent_id).toBeNull();
    for (const extra of [
      { payment_terms_days: 366 },
      { payment_terms_days: -1 },
      { payment_terms_days: 1.5 },
      { contact_type: "lead" },
      { country: "ESP" },
      { email: "not-an-email" },
      { name: "" },
    ]) {
      expectProblem(await createContact({ ...base, ...extra }), 400);
    }
  });

  it("answers 400 for a non-UUID id and 404 for an unknown one", async () => {
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/clients/abc" }), 400);
    const unknown = "01900000-0000-7000-8000-000000000000";
    expectProblem(await t.as(t.adminToken, { method: "GET", url: `/api/clients/${unknown}` }), 404);
    expectProblem(await updateContact(unknown, { name: "x" }), 404);
    expectProblem(await t.as(t.adminToken, { method: "DELETE", url: `/api/clients/${unknown}` }), 404);
  });
});

describe("/api/clients tax ids", () => {
  const base = () => ({ company_id: companyA, contact_type: "customer", name: "Tax id check" });

  it("accepts valid NIF, NIE and CIF and stores them normalized", async () => {
    for (const [input, stored] of [
      ["12345678z", "12345678Z"],
      ["X-1234567-L", "X1234567L"],
      ["Y0000000Z", "Y0000000Z"],
      ["A58818501", "A58818501"],
      ["Q2826000H", "Q2826000H"],
      ["ESB87654323", "B87654323"],
    ]) {
      const res = await createContact({ ...base(), tax_id: input });
      expect(res.statusCode, `${input}: ${res.body}`).toBe(201);
      expect(res.json().tax_id).toBe(stored);
    }
  });

  it("refuses invalid ones with a 400 naming tax_id", async () => {
    for (const input of [
      "12345678A",
      "X1234567A",
      "A58818502",
      "Q2826000A",
      "1234567Z",
      "ZZZ",
      "FR40303265045",
    ]) {
      const problem = expectProblem(await createContact({ ...base(), tax_id: input }), 400);
      expect(
        problem.errors?.map((e) => e.path),
        input,
      ).toContain("tax_id");
    }
  });

  it("accepts the EU VAT number of a contact in another member state", async () => {
    const fr = await createContact({ ...base(), country: "fr", tax_id: "FR 40 303265045" });
    expect(fr.statusCode, fr.body).toBe(201);
    expect(fr.json()).toMatchObject({ country: "FR", tax_id: "FR40303265045" });
    const de = await createContact({ ...base(), country: "DE", tax_id: "123456789" });
    expect(de.json().tax_id).toBe("DE123456789");
    const gr = await createContact({ ...base(), country: "GR", tax_id: "EL094259216" });
    expect(gr.json().tax_id).toBe("EL094259216");
    const spaniardInPortugal = await createContact({ ...base(), country: "PT", tax_id: "00000001R" });
    expect(spaniardInPortugal.json().tax_id).toBe("00000001R");
    for (const [country, tax_id] of [
      ["FR", "DE123456789"],
      ["DE", "DE12345"],
      ["IT", "GB123456789"],
    ]) {
      const problem = expectProblem(await createContact({ ...base(), country, tax_id }), 400);
      expect(problem.errors?.[0].path).toBe("tax_id");
    }
    expectProblem(await updateContact(fr.json().id, { country: "ES" }), 400);
    const moved = await updateContact(fr.json().id, { country: "ES", tax_id: "B62468392" });
    expect(moved.json()).toMatchObject({ country: "ES", tax_id: "B62468392" });
  });

  it("keeps a foreign tax id outside the EU as typed, letters and digits only", async () => {
    const us = await createContact({ ...base(), country: "US", tax_id: "12-3456789" });
    expect(us.json().tax_id).toBe("123456789");
    expectProblem(await createContact({ ...base(), country: "US", tax_id: "#!" }), 400);
  });
});
