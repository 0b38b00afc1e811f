import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../../test/helpers/constants.js";
import { claimsOf } from "../../../../test/helpers/jwt.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";
import * as users from "../users/service.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// Each failing test logs in from its own address, so failures never add up to the 429 limit.
let address = 0;
const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: payload as object,
    headers,
    remoteAddress: `10.1.0.${++address}`,
  });

describe("POST /api/v1/auth/login", () => {
  it("returns a bearer token pair for valid credentials", async () => {
    const res = await login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["access_token", "refresh_token", "token_type"]);
    expect(body.token_type).toBe("bearer");
    expect(body.access_token.split(".")).toHaveLength(3);
    expect(body.refresh_token.split(".")).toHaveLength(3);
  });

  it("issues HS256 tokens with the DESIGN.md claims and lifetimes", async () => {
    const { access_token, refresh_token } = (
      await login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password })
    ).json();
    const header = JSON.parse(Buffer.from(access_token.split(".")[0], "base64url").toString());
    expect(header.alg).toBe("HS256");
    const access = claimsOf(access_token);
    const refresh = claimsOf(refresh_token);
    expect(access).toMatchObject({ iss: "cuadra", aud: "cuadra-api", tid: "default", typ: "access" });
    expect(refresh).toMatchObject({ iss: "cuadra", aud: "cuadra-api", tid: "default", typ: "refresh" });
    expect(access.sub).toBe(refresh.sub);
    expect(access.sid).toBe(refresh.sid);
    expect(access.jti).not.toBe(refresh.jti);
    expect(access.exp - access.iat).toBe(30 * 60);
    expect(refresh.exp - refresh.iat).toBe(7 * 86_400);
  });

  it("accepts the e-mail in any case and with surrounding spaces", async () => {
    const res = await login({ email: `  ${TEST_ADMIN.email.toUpperCase()} `, password: TEST_ADMIN.password });
    expect(res.statusCode).toBe(200);
  });

  it("answers wrong password, unknown e-mail and inactive user with the same 401", async () => {
    const inactive = await users.createUser(t.ctx, {
      email: "inactive@example.com",
      password: "inactive-password",
      isActive: false,
    });
    expect(inactive.isActive).toBe(false);
    const wrong = await login({ email: TEST_ADMIN.email, password: "nope-nope" });
    const unknown = await login({ email: "ghost@example.com", password: "nope-nope" });
    const disabled = await login({ email: "inactive@example.com", password: "inactive-password" });
    const bodies = [wrong, unknown, disabled].map((res) => {
      const body = expectUnauthorized(res);
      expect(body.instance).toBe("/api/v1/auth/login");
      return body;
    });
    expect(bodies[1].detail).toBe(bodies[0].detail);
    expect(bodies[2].detail).toBe(bodies[0].detail);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it("answers 400 with field errors for an invalid body", async () => {
    for (const payload of [
      {},
      { email: TEST_ADMIN.email },
      { password: "x" },
      { email: 42, password: "x" },
      { email: "", password: "x" },
      { email: TEST_ADMIN.email, password: "" },
    ]) {
      const body = expectProblem(await login(payload), 400);
      expect(body.errors?.length, JSON.stringify(payload)).toBeGreaterThan(0);
      for (const e of body.errors ?? [])
        expect(e).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  });

  it("answers 400 to a body that is not JSON and 415 to an unsupported content type", async () => {
    expectProblem(await login("{not json", { "content-type": "application/json" }), 400);
    expectProblem(
      await login(`email=${TEST_ADMIN.email}&password=x`, {
        "content-type": "application/x-www-form-urlencoded",
      }),
      415,
    );
  });
});

describe("GET /api/v1/users/me", () => {
  it("serves the token's user", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(TEST_ADMIN.email);
    expect(res.json().permissions).toContain("usuarios:leer");
  });

  it("answers 401 without a token and with a malformed Authorization header", async () => {
    expectUnauthorized(await t.app.inject({ method: "GET", url: "/api/v1/users/me" }));
    for (const authorization of ["Basic YWRtaW46YWRtaW4=", "Bearer", `Token ${t.adminToken}`, "Bearer a b"]) {
      expectUnauthorized(
        await t.app.inject({ method: "GET", url: "/api/v1/users/me", headers: { authorization } }),
      );
    }
  });

  it("accepts the scheme in any case", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/users/me",
      headers: { authorization: `bearer ${t.adminToken}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
