import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { claimsOf, nowSeconds, signToken } from "../../../../test/helpers/jwt.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await t.userWith([]);
});
afterAll(async () => {
  await t?.close();
});

type Pair = { access_token: string; refresh_token: string };

const refresh = (refresh_token: string) =>
  t.app.inject({ method: "POST", url: "/api/v1/auth/refresh", payload: { refresh_token } });
const me = (token: string) => t.as(token, { method: "GET", url: "/api/v1/users/me" });
const logout = (token: string, payload?: object) =>
  t.as(token, { method: "POST", url: "/api/v1/auth/logout", ...(payload ? { payload } : {}) });

/** Ages the spent refresh tokens past the race window: presenting one again is now reuse (theft). */
async function ageSpentTokens() {
  await t.db.execute(
    sql`update refresh_tokens set used_at = used_at - interval '1 minute' where used_at is not null`,
  );
}

/** Every token of these pairs is refused: access on /users/me, refresh on /auth/refresh. */
async function expectDead(...pairs: Pair[]) {
  for (const p of pairs) {
    expectUnauthorized(await me(p.access_token));
    expectUnauthorized(await refresh(p.refresh_token));
  }
}

describe("POST /api/v1/auth/refresh", () => {
  it("returns a new working pair for the same session", async () => {
    const first = await t.login(user.email, user.password);
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next.token_type).toBe("bearer");
    expect(next.access_token).not.toBe(first.access_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect(claimsOf(next.access_token).sid).toBe(claimsOf(first.access_token).sid);
    expect((await me(next.access_token)).statusCode).toBe(200);
    // Rotation does not end the access token issued with the spent refresh token.
    expect((await me(first.access_token)).statusCode).toBe(200);
    // The new refresh token rotates again.
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it("spends the old refresh token, and its reuse revokes the whole session", async () => {
    const first = await t.login(user.email, user.password);
    const legit = (await refresh(first.refresh_token)).json() as Pair;
    expect((await me(legit.access_token)).statusCode).toBe(200);

    await ageSpentTokens();
    expectUnauthorized(await refresh(first.refresh_token)); // replayed: spent
    // The legitimate rotation's tokens die with the session.
    await expectDead(legit, first);
  });

  it("treats concurrent refreshes of one token as a race: one new pair, 409s, the session lives", async () => {
    const first = await t.login(user.email, user.password);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(first.refresh_token)));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const r of answers) if (r.statusCode !== 200) expectProblem(r, 409);
    // The winner's pair works, and keeps rotating.
    const pair = won[0].json() as Pair;
    expect((await me(pair.access_token)).statusCode).toBe(200);
    expect((await refresh(pair.refresh_token)).statusCode).toBe(200);
  });

  it("leaves the user's other sessions alone on reuse", async () => {
    const other = await t.login(user.email, user.password);
    const victim = await t.login(user.email, user.password);
    await refresh(victim.refresh_token);
    await ageSpentTokens();
    expectUnauthorized(await refresh(victim.refresh_token));
    expect((await me(other.access_token)).statusCode).toBe(200);
  });

  it("refuses garbage, an expired refresh token, and an access token", async () => {
    const pair = await t.login(user.email, user.password);
    for (const token of ["garbage", "a.b.c", pair.access_token, `${pair.refresh_token}x`]) {
      expectUnauthorized(await refresh(token));
    }
    // A refresh token of a live session, re-signed with the right key but expired.
    const claims = claimsOf(pair.refresh_token);
    const expired = await signToken({
      ...claims,
      iat: nowSeconds() - 7200,
      exp: nowSeconds() - 3600,
    });
    expectUnauthorized(await refresh(expired));
    // The same claims unexpired would have worked: the refusal is about expiry, not the row.
    expect((await refresh(pair.refresh_token)).statusCode).toBe(200);
  });

  it("refuses a well-signed refresh token that was never issued", async () => {
    const token = await signToken({
      sub: user.id,
      tid: "default",
      sid: randomUUID(),
      jti: randomUUID(),
      typ: "refresh",
      iat: nowSeconds(),
      exp: nowSeconds() + 3600,
    });
    expectUnauthorized(await refresh(token));
  });

  it("answers 400 to a body without refresh_token", async () => {
    expectProblem(await t.app.inject({ method: "POST", url: "/api/v1/auth/refresh", payload: {} }), 400);
  });

  it("refuses the refresh token of a deactivated user", async () => {
    const u = await t.userWith([]);
    await t.as(t.adminToken, { method: "PUT", url: `/api/v1/users/${u.id}`, payload: { is_active: false } });
    expectUnauthorized(await refresh(u.refreshToken));
  });
});

describe("POST /api/v1/auth/logout", () => {
  it("answers 204; that access token and the session's refresh token then get 401", async () => {
    const pair = await t.login(user.email, user.password);
    const other = await t.login(user.email, user.password);
    const res = await logout(pair.access_token);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe("");
    await expectDead(pair);
    // Another session of the same user is untouched.
    expect((await me(other.access_token)).statusCode).toBe(200);
  });

  it("also kills the access token issued by an earlier rotation of the session", async () => {
    const pair = await t.login(user.email, user.password);
    const rotated = (await refresh(pair.refresh_token)).json() as Pair;
    expect((await logout(rotated.access_token)).statusCode).toBe(204);
    await expectDead(rotated);
    expectUnauthorized(await me(pair.access_token));
  });

  it("revokes another session of the same user named by its refresh_token", async () => {
    const current = await t.login(user.email, user.password);
    const phone = await t.login(user.email, user.password);
    const tablet = await t.login(user.email, user.password);
    expect((await logout(current.access_token, { refresh_token: phone.refresh_token })).statusCode).toBe(204);
    await expectDead(current, phone);
    expect((await me(tablet.access_token)).statusCode).toBe(200);
  });

  it("does not revoke another user's session named by its refresh_token", async () => {
    const mine = await t.login(user.email, user.password);
    const stranger = await t.userWith([]);
    expect((await logout(mine.access_token, { refresh_token: stranger.refreshToken })).statusCode).toBe(204);
    expect((await me(stranger.token)).statusCode).toBe(200);
    expect((await refresh(stranger.refreshToken)).statusCode).toBe(200);
  });

  it("answers 401 without a token, with a logged-out token, and 400 to a bad body", async () => {
    expectUnauthorized(await t.app.inject({ method: "POST", url: "/api/v1/auth/logout" }));
    const pair = await t.login(user.email, user.password);
    expectProblem(await logout(pair.access_token, { refresh_token: 42 }), 400);
    expect((await logout(pair.access_token)).statusCode).toBe(204);
    expectUnauthorized(await logout(pair.access_token));
  });
});

describe("POST /api/v1/auth/logout-all", () => {
  it("revokes every session of the caller and no one else's", async () => {
    const u = await t.userWith([]);
    const sessions = [
      { access_token: u.token, refresh_token: u.refreshToken },
      await t.login(u.email, u.password),
      await t.login(u.email, u.password),
    ];
    const bystander = await t.login(user.email, user.password);
    const res = await t.as(sessions[1].access_token, { method: "POST", url: "/api/v1/auth/logout-all" });
    expect(res.statusCode).toBe(204);
    await expectDead(...sessions);
    expect((await me(bystander.access_token)).statusCode).toBe(200);
    // The user can log in again.
    const again = await t.login(u.email, u.password);
    expect((await me(again.access_token)).statusCode).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expectUnauthorized(await t.app.inject({ method: "POST", url: "/api/v1/auth/logout-all" }));
  });
});

describe("POST /api/v1/users/{id}/revoke-tokens", () => {
  it("revokes every token of another user (usuarios:editar)", async () => {
    const editor = await t.userWith(["usuarios:editar"]);
    const target = await t.userWith([]);
    const second = await t.login(target.email, target.password);
    const res = await t.as(editor.token, { method: "POST", url: `/api/v1/users/${target.id}/revoke-tokens` });
    expect(res.statusCode).toBe(204);
    await expectDead({ access_token: target.token, refresh_token: target.refreshToken }, second);
    expect((await me(editor.token)).statusCode).toBe(200);
    const again = await t.login(target.email, target.password);
    expect((await me(again.access_token)).statusCode).toBe(200);
  });

  it("answers 403 without usuarios:editar, 404 for an unknown id, 400 for a non-UUID, 401 without a token", async () => {
    const reader = await t.userWith(["usuarios:leer"]);
    const url = `/api/v1/users/${user.id}/revoke-tokens`;
    expectProblem(await t.as(reader.token, { method: "POST", url }), 403);
    expectProblem(
      await t.as(t.adminToken, { method: "POST", url: `/api/v1/users/${randomUUID()}/revoke-tokens` }),
      404,
    );
    const bad = expectProblem(
      await t.as(t.adminToken, { method: "POST", url: "/api/v1/users/not-a-uuid/revoke-tokens" }),
      400,
    );
    expect(bad.errors?.[0].path).toContain("id");
    expectUnauthorized(await t.app.inject({ method: "POST", url }));
    // The refused attempts revoked nothing.
    expect((await me(user.token)).statusCode).toBe(200);
  });
});
