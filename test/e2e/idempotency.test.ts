import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueCif } from "../../src/modules/accounting/test-support.js";
import { queryOne } from "../../src/platform/db/sql.js";
import { createTestApp, type TestApp, type TestUser } from "../helpers/app.js";
import { expectProblem } from "../helpers/problem.js";

let t: TestApp;
let creator: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  creator = await t.userWith(["companies:crear", "companies:leer"]);
  other = await t.userWith(["companies:crear", "companies:leer"]);
});
afterAll(async () => {
  await t?.close();
});

let keyCounter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${++keyCounter}`;

function createCompany(token: string, body: Record<string, unknown>, key?: string) {
  return t.as(token, {
    method: "POST",
    url: "/api/companies",
    headers: key === undefined ? {} : { "idempotency-key": key },
    payload: body,
  });
}

async function companiesNamed(name: string) {
  const row = await queryOne<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from companies where name = ${name}`,
  );
  return row?.n ?? 0;
}

describe("Idempotency-Key on POST", () => {
  it("replays the stored answer (status and body) to the same key and body; the write happens once", async () => {
    const key = newKey();
    const body = { name: `Idem ${key}`, tax_id: uniqueCif() };
    const first = await createCompany(creator.token, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await createCompany(creator.token, { tax_id: body.tax_id, name: body.name }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toContain("application/json");
    expect(again.json()).toEqual(first.json());
    expect(await companiesNamed(body.name)).toBe(1);
  });

  it("answers 422 to the same key with another body, and runs nothing", async () => {
    const key = newKey();
    const body = { name: `Idem ${key}`, tax_id: uniqueCif() };
    expect((await createCompany(creator.token, body, key)).statusCode).toBe(201);
    const res = await createCompany(creator.token, { ...body, name: `${body.name} bis` }, key);
    const problem = expectProblem(res, 422);
    expect(problem.type).toBe("urn:cuadra:problem:idempotency-key-reused");
    expect(await companiesNamed(`${body.name} bis`)).toBe(0);
  });

  it("keeps keys per user: another user's identical key runs its own request", async () => {
    const key = newKey();
    const first = await createCompany(creator.token, { name: `Idem ${key}`, tax_id: uniqueCif() }, key);
    const theirs = await createCompany(other.token, { name: `Idem other ${key}`, tax_id: uniqueCif() }, key);
    expect(first.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.json().id).not.toBe(first.json().id);
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const key = newKey();
    const body = { name: `Idem ${key}`, tax_id: uniqueCif() };
    const hash = await (async () => {
      // Claim the key as a running request would, then let it finish.
      const running = await createCompany(creator.token, body, key);
      expect(running.statusCode).toBe(201);
      const row = await queryOne<{ h: string }>(
        t.db,
        sql`select request_hash as h from idempotency_keys where key = ${key}`,
      );
      return row?.h;
    })();
    await t.db.execute(
      sql`update idempotency_keys set status = null, response_body = null where key = ${key} and request_hash = ${hash}`,
    );
    const res = await createCompany(creator.token, body, key);
    expectProblem(res, 409);
    expect(await companiesNamed(body.name)).toBe(1);
  });

  it("runs concurrent requests with one key once: the others get 409 or the replay", async () => {
    const key = newKey();
    const body = { name: `Idem ${key}`, tax_id: uniqueCif() };
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => createCompany(creator.token, body, key)));
    const ran = answers.filter((a) => a.statusCode === 201 && !a.headers["idempotent-replayed"]);
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a.statusCode === 409) expectProblem(a, 409);
      else expect(a.json()).toEqual(ran[0].json());
    }
    expect(await companiesNamed(body.name)).toBe(1);
  });

  it("replays a stored client error too (the request ran and was refused)", async () => {
    const key = newKey();
    const taxId = uniqueCif();
    expect((await createCompany(creator.token, { name: `Idem ${key}`, tax_id: taxId })).statusCode).toBe(201);
    const body = { name: `Idem dup ${key}`, tax_id: taxId };
    const first = await createCompany(creator.token, body, key);
    expectProblem(first, 409);
    const again = await createCompany(creator.token, body, key);
    expect(again.statusCode).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toContain("application/problem+json");
    expect(again.json()).toEqual(first.json());
  });

  it("stores nothing for a request refused by validation: the key can then be used", async () => {
    const key = newKey();
    expectProblem(await createCompany(creator.token, { name: "" }, key), 400);
    const res = await createCompany(creator.token, { name: `Idem ${key}`, tax_id: uniqueCif() }, key);
    expect(res.statusCode).toBe(201);
    expect(res.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("forgets a key after 24 hours: the request runs again", async () => {
    const key = newKey();
    const body = { name: `Idem ${key}`, tax_id: uniqueCif() };
    expect((await createCompany(creator.token, body, key)).statusCode).toBe(201);
    await t.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${key}`,
    );
    const res = await createCompany(creator.token, body, key);
    // It ran: the same tax id is now a duplicate.
    expectProblem(res, 409);
    expect(res.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("refuses a malformed key with a 400 naming the header", async () => {
    const res = await createCompany(creator.token, { name: "x", tax_id: uniqueCif() }, "x".repeat(256));
    const problem = expectProblem(res, 400);
    expect(problem.errors?.[0]?.path).toBe("headers.idempotency-key");
  });

  it("is documented on POST routes of both OpenAPI documents, with its 409 and 422", async () => {
    for (const [doc, path] of [
      ["/api/openapi.json", "/api/companies"],
      ["/api/v1/openapi.json", "/api/v1/budgets"],
    ]) {
      const spec = (await t.app.inject({ url: doc })).json();
      const post = spec.paths[path].post;
      const param = post.parameters.find((p: { name: string }) => p.name === "Idempotency-Key");
      expect(param?.in).toBe("header");
      expect(param?.required).toBe(false);
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["409", "422"]));
      expect(
        spec.paths[path].get.parameters?.some((p: { name: string }) => p.name === "Idempotency-Key"),
      ).toBe(false);
    }
  });
});
