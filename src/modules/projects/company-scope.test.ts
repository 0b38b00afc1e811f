import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers/app.js";
import { multipartFile, uniqueCode } from "./budgets/test-support.js";
import { insertBudget, insertItem } from "./certifications/test-support.js";
import { budgets } from "./tables.js";

// /api/v1 under a company restriction (ADR 013): another company's budget, and everything in it, is a 404.

let t: TestApp;
let companyA: string;
let companyB: string;
let restricted: TestUser;
/** Company B's budget and one record of each kind in it. */
const other = { budget: "", item: "", activity: "", certification: "", cost: "", attachment: "" };
/** Company A's budget (the restricted user's own). */
let ownBudget: string;

const PERMISSIONS = ["budgets", "activities", "certifications", "accounting"].flatMap((m) =>
  ["leer", "crear", "editar", "eliminar", "validar"].map((a) => `${m}:${a}`),
);

async function ok(res: { statusCode: number; body: string; json(): unknown }, status: number) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json() as { id: string } & Record<string, unknown>;
}

async function worldOf(companyId: string) {
  const budget = await insertBudget(t.db, { companyId });
  const item = await insertItem(t.db, budget.id, { code: "01.01", quantity: "10", unitPrice: "5" });
  const admin = (method: "POST", url: string, payload: object) =>
    t.as(t.adminToken, { method, url, payload });
  const activity = await ok(
    await admin("POST", "/api/v1/activities", { budget_id: budget.id, code: "ACT-1", name: "Encofrado" }),
    201,
  );
  const certification = await ok(
    await admin("POST", "/api/v1/certifications", {
      budget_id: budget.id,
      period_start: "2025-01-01",
      period_end: "2025-01-31",
      lines: [{ budget_item_id: item.id, quantity_to_origin: "1" }],
    }),
    201,
  );
  const cost = await ok(
    await admin("POST", "/api/v1/accounting", {
      budget_id: budget.id,
      date: "2025-05-10",
      category: "material",
      net_amount: "100.00",
    }),
    201,
  );
  const attachment = await ok(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/accounting/${cost.id}/attachments`,
      ...multipartFile(Buffer.from("a;b\n1;2\n"), "gasto.csv"),
    }),
    201,
  );
  return {
    budget: budget.id,
    item: item.id,
    activity: activity.id,
    certification: certification.id,
    cost: cost.id,
    attachment: attachment.id,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Obras A", "B12345674");
  companyB = await t.createCompany("Obras B", "A58818501");
  Object.assign(other, await worldOf(companyB));
  ownBudget = (await worldOf(companyA)).budget;
  restricted = await t.userWith(PERMISSIONS, { companyId: companyA });
});
afterAll(async () => {
  await t?.close();
});

const as = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.as(restricted.token, { method, url, payload });

describe("a company-restricted user on /api/v1", () => {
  it("lists only its company's budgets and records", async () => {
    const budgetsPage = (await as("GET", "/api/v1/budgets?limit=1000")).json();
    expect(budgetsPage.data.map((b: { id: string }) => b.id)).toEqual([ownBudget]);
    expect(budgetsPage.total).toBe(1);
    expect(budgetsPage.data[0].company_id).toBe(companyA);
    for (const url of ["/api/v1/activities", "/api/v1/certifications", "/api/v1/accounting"]) {
      const page = (await as("GET", `${url}?limit=1000`)).json();
      expect(page.total, url).toBe(1);
      expect(
        page.data.every((r: { budget_id: string }) => r.budget_id === ownBudget),
        url,
      ).toBe(true);
      const filtered = (await as("GET", `${url}?budget_id=${other.budget}`)).json();
      expect(filtered.total, `${url}?budget_id= another company's budget`).toBe(0);
    }
    const asked = (await as("GET", `/api/v1/budgets?company_id=${companyB}`)).json();
    expect(asked.total).toBe(0);
  });

  it("gets a 404 for another company's budget and everything in it, read or write", async () => {
    const b = other.budget;
    const calls: Array<["GET" | "POST" | "PUT" | "DELETE", string, object?]> = [
      ["GET", `/api/v1/budgets/${b}`],
      ["PUT", `/api/v1/budgets/${b}`, { name: "x" }],
      ["DELETE", `/api/v1/budgets/${b}`],
      ["POST", `/api/v1/budgets/${b}/duplicate`, {}],
      ["PUT", `/api/v1/budgets/${b}/estado`, { estado: "finalizado" }],
      ["GET", `/api/v1/budgets/${b}/history`],
      ["GET", `/api/v1/budgets/${b}/export-bc3`],
      ["GET", `/api/v1/budget-items?budget_id=${b}`],
      ["POST", "/api/v1/budget-items", { budget_id: b, code: "NEW" }],
      ["GET", `/api/v1/budget-items/${other.item}`],
      ["PUT", `/api/v1/budget-items/${other.item}`, { summary: "x" }],
      ["POST", `/api/v1/budget-items/${other.item}/move`, { parent_id: null, position: 0 }],
      ["DELETE", `/api/v1/budget-items/${other.item}`],
      ["POST", "/api/v1/activities", { budget_id: b, code: "A2", name: "x" }],
      ["GET", `/api/v1/activities/${other.activity}`],
      ["PUT", `/api/v1/activities/${other.activity}`, { name: "x" }],
      ["PUT", `/api/v1/activities/${other.activity}/estado`, { estado: "en_curso" }],
      ["DELETE", `/api/v1/activities/${other.activity}`],
      [
        "POST",
        "/api/v1/certifications",
        {
          budget_id: b,
          period_start: "2025-02-01",
          period_end: "2025-02-28",
          lines: [{ budget_item_id: other.item, quantity_to_origin: "2" }],
        },
      ],
      ["GET", `/api/v1/certifications/${other.certification}`],
      ["GET", `/api/v1/certifications/${other.certification}/pdf`],
      [
        "PUT",
        `/api/v1/certifications/${other.certification}`,
        {
          period_start: "2025-01-01",
          period_end: "2025-01-31",
          lines: [{ budget_item_id: other.item, quantity_to_origin: "3" }],
        },
      ],
      ["PUT", `/api/v1/certifications/${other.certification}/estado`, { estado: "emitida" }],
      ["DELETE", `/api/v1/certifications/${other.certification}`],
      ["GET", `/api/v1/accounting/summary?budget_id=${b}`],
      [
        "POST",
        "/api/v1/accounting",
        { budget_id: b, date: "2025-05-10", category: "other", net_amount: "1" },
      ],
      ["GET", `/api/v1/accounting/${other.cost}`],
      ["PUT", `/api/v1/accounting/${other.cost}`, { concept: "x" }],
      ["GET", `/api/v1/accounting/${other.cost}/attachments`],
      ["GET", `/api/v1/accounting/${other.cost}/attachments/${other.attachment}`],
      ["DELETE", `/api/v1/accounting/${other.cost}/attachments/${other.attachment}`],
      ["DELETE", `/api/v1/accounting/${other.cost}`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await as(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
    const replace = await t.as(restricted.token, {
      method: "POST",
      url: `/api/v1/budgets/${b}/import-bc3`,
      ...multipartFile(Buffer.from("~V|SOFT|FIEBDC-3/2016|Cuadra||ANSI|\r\n~C|OB##||Obra|0|\r\n")),
    });
    expect(replace.statusCode).toBe(404);

    // Nothing of company B changed.
    const admin = await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets/${b}` });
    expect(admin.statusCode).toBe(200);
    for (const url of [
      `/api/v1/budget-items/${other.item}`,
      `/api/v1/activities/${other.activity}`,
      `/api/v1/certifications/${other.certification}`,
      `/api/v1/accounting/${other.cost}/attachments/${other.attachment}`,
    ]) {
      expect((await t.as(t.adminToken, { method: "GET", url })).statusCode, url).toBe(200);
    }
  });

  it("creates budgets in its own company, and never in another", async () => {
    const own = await as("POST", "/api/v1/budgets", { code: uniqueCode(), name: "Propia" });
    expect(own.statusCode).toBe(201);
    expect(own.json().company_id).toBe(companyA);
    const explicit = await as("POST", "/api/v1/budgets", {
      code: uniqueCode(),
      name: "Propia",
      company_id: companyA,
    });
    expect(explicit.json().company_id).toBe(companyA);
    const elsewhere = await as("POST", "/api/v1/budgets", {
      code: uniqueCode(),
      name: "Ajena",
      company_id: companyB,
    });
    expect(elsewhere.statusCode).toBe(404);

    const bc3 = Buffer.from(
      `~V|SOFT|FIEBDC-3/2016|Cuadra||ANSI|\r\n~C|${uniqueCode("R")}##||Obra importada|0|\r\n`,
    );
    const imported = await t.as(restricted.token, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      ...multipartFile(bc3),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().company_id).toBe(companyA);
  });

  it("copies the company into a duplicate", async () => {
    const copy = await as("POST", `/api/v1/budgets/${ownBudget}/duplicate`, {});
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json().company_id).toBe(companyA);
  });
});

describe("an unrestricted user", () => {
  it("sees every company's budgets, filters by company, and names the company when there are several", async () => {
    const all = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets?limit=1000" })).json();
    const companies = new Set(all.data.map((b: { company_id: string }) => b.company_id));
    expect(companies).toEqual(new Set([companyA, companyB]));
    const onlyB = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets?company_id=${companyB}` })
    ).json();
    expect(onlyB.data.map((b: { id: string }) => b.id)).toEqual([other.budget]);

    const missing = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: uniqueCode(), name: "Sin empresa" },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: "company_id", message: "is required" }]);

    const inB = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: uniqueCode(), name: "En B", company_id: companyB },
    });
    expect(inB.json().company_id).toBe(companyB);

    const unknown = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: uniqueCode(), name: "x", company_id: "0190f5a0-0000-7000-8000-000000000000" },
    });
    expect(unknown.statusCode).toBe(404);

    const badPart = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      ...companyPart(Buffer.from("~V|SOFT|FIEBDC-3/2016|Cuadra||ANSI|\r\n~C|Z##||Obra|0|\r\n"), "nope"),
    });
    expect(badPart.statusCode).toBe(400);
    expect(badPart.json().errors).toEqual([{ path: "body.company_id", message: "must be a UUID" }]);

    const code = uniqueCode("I");
    const imported = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      ...companyPart(
        Buffer.from(`~V|SOFT|FIEBDC-3/2016|Cuadra||ANSI|\r\n~C|${code}##||Obra|0|\r\n`),
        companyB,
      ),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().company_id).toBe(companyB);
  });
});

/** A BC3 upload with a `company_id` text part before the file. */
function companyPart(content: Buffer, companyId: string) {
  const boundary = "----cuadra-company";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="company_id"\r\n\r\n${companyId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="obra.bc3"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

describe("the migration", () => {
  it("gives budgets made before companies the tenant's first company", async () => {
    const file = readdirSync("drizzle")
      .filter((f) => f.endsWith(".sql"))
      .map((f) => readFileSync(join("drizzle", f), "utf8"))
      .find((text) => text.includes('ALTER TABLE "budgets" ADD COLUMN "company_id"'));
    const update = file
      ?.split("--> statement-breakpoint")
      .map((s) => s.trim())
      .find((s) => s.includes('UPDATE "budgets"'));
    expect(update).toBeDefined();
    const orphan = await insertBudget(t.db, { companyId: null });
    await t.db.execute(sql.raw(update as string));
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, orphan.id));
    expect(row.companyId).toBe(companyA);
  });
});
