/**
 * The last active administrator under concurrency (issue 16): A deactivates B, B deactivates A and
 * the first administrator drops its own admin role, all at once. On PostgreSQL these run in
 * parallel; PGlite serialises them, and the rule must hold either way.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../test/helpers/constants.js";
import { queryOne } from "../../platform/db/sql.js";

let t: TestApp;
let adminRoleId: string;
let bootId: string;
beforeAll(async () => {
  t = await createTestApp();
  const me = (await t.as(t.adminToken, { url: "/api/v1/users/me" })).json();
  bootId = me.id;
  adminRoleId = me.roles.find((r: { name: string }) => r.name === "admin").id;
});
afterAll(async () => {
  await t?.close();
});

async function activeAdmins() {
  const row = await queryOne<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from users u join user_roles ur on ur.user_id = u.id
         where ur.role_id = ${adminRoleId} and u.is_active`,
  );
  return row?.n ?? 0;
}

describe("the last active administrator", () => {
  for (const round of [1, 2, 3]) {
    it(`three concurrent removals leave at least one (round ${round})`, async () => {
      // Back to exactly three active administrators: the first one and two new ones.
      await t.db.execute(sql`update users set is_active = false
                              where id <> ${bootId} and id in (select user_id from user_roles where role_id = ${adminRoleId})`);
      await t.db.execute(
        sql`insert into user_roles (user_id, role_id) values (${bootId}, ${adminRoleId}) on conflict do nothing`,
      );
      const boot = await t.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const make = async (name: string) => {
        const email = `${name}-${round}-${Date.now()}@example.com`;
        const res = await t.as(boot.access_token, {
          method: "POST",
          url: "/api/v1/users",
          payload: { email, password: "admin-password-9", role_ids: [adminRoleId] },
        });
        expect(res.statusCode, res.body).toBe(201);
        return {
          id: res.json().id as string,
          token: (await t.login(email, "admin-password-9")).access_token,
        };
      };
      const a = await make("a");
      const b = await make("b");
      expect(await activeAdmins()).toBe(3);

      const answers = await Promise.all([
        t.as(a.token, { method: "DELETE", url: `/api/v1/users/${b.id}` }),
        t.as(b.token, { method: "DELETE", url: `/api/v1/users/${a.id}` }),
        t.as(boot.access_token, { method: "DELETE", url: `/api/v1/users/${bootId}/roles/${adminRoleId}` }),
      ]);
      for (const res of answers) expect([204, 401, 409]).toContain(res.statusCode);
      expect(await activeAdmins()).toBeGreaterThanOrEqual(1);
    });
  }
});
