import { generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { claimsOf, nowSeconds, signToken } from "../../../../test/helpers/jwt.js";
import { expectUnauthorized } from "../../../../test/helpers/problem.js";

let t: TestApp;
let victim: TestUser;
/** The claims of the victim's genuine access token: every forgery starts from them. */
let claims: Record<string, unknown>;
beforeAll(async () => {
  t = await createTestApp();
  victim = await t.userWith(["usuarios:leer"]);
  claims = claimsOf(victim.token);
});
afterAll(async () => {
  await t?.close();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const signatureOf = (token: string) => token.split(".")[2];

const attacks: [string, () => Promise<string>][] = [
  ["alg none", async () => new UnsecuredJWT(claims).setIssuer("cuadra").setAudience("cuadra-api").encode()],
  [
    "alg none with an empty signature on a genuine payload",
    async () => `${b64({ alg: "none", typ: "JWT" })}.${victim.token.split(".")[1]}.`,
  ],
  [
    "HS256 header on an HS512 signature",
    async () => {
      const hs512 = await signToken(claims, { alg: "HS512" });
      return `${b64({ alg: "HS256", typ: "JWT" })}.${hs512.split(".")[1]}.${signatureOf(hs512)}`;
    },
  ],
  ["HS512 header, right secret", () => signToken(claims, { alg: "HS512" })],
  [
    "RS256 header, signed with a generated RSA key",
    async () => {
      const { privateKey } = await generateKeyPair("RS256");
      return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "JWT" }).sign(privateKey);
    },
  ],
  [
    "wrong secret",
    () => signToken(claims, { key: new TextEncoder().encode("another-secret-another-secret-0123456789") }),
  ],
  [
    "missing exp",
    async () => {
      const { exp: _exp, ...rest } = claims;
      return signToken(rest);
    },
  ],
  ["expired", () => signToken({ ...claims, iat: nowSeconds() - 3600, exp: nowSeconds() - 120 })],
  [
    "tampered payload: another sub, the original signature",
    async () => {
      const [header, , signature] = victim.token.split(".");
      return `${header}.${b64({ ...claims, sub: "00000000-0000-7000-8000-000000000001" })}.${signature}`;
    },
  ],
  ["garbage", async () => "garbage"],
  ["three garbage segments", async () => "aaa.bbb.ccc"],
  ["a header that is not JSON", async () => `${Buffer.from("{").toString("base64url")}.e30.sig`],
  ["another tenant id (tid)", () => signToken({ ...claims, tid: "other-tenant" })],
  ["no tid", async () => signToken({ ...claims, tid: undefined })],
  ["the refresh token as access token", async () => victim.refreshToken],
  ["typ refresh on access claims", () => signToken({ ...claims, typ: "refresh" })],
  ["wrong issuer", () => signToken(claims, { issuer: "someone-else" })],
  ["wrong audience", () => signToken(claims, { audience: "another-api" })],
  [
    "no issuer nor audience",
    async () => {
      const { iss: _iss, aud: _aud, ...rest } = claims;
      return signToken(rest, { issuer: null, audience: null });
    },
  ],
  ["sub not a UUID", () => signToken({ ...claims, sub: "1 or 1=1" })],
  ["sid of no session", () => signToken({ ...claims, sid: "00000000-0000-7000-8000-000000000002" })],
  ["sub of no user", () => signToken({ ...claims, sub: "00000000-0000-7000-8000-000000000003" })],
  ["exp not a number", () => signToken({ ...claims, exp: "never" as unknown as number })],
  ["an API token (cdr_) on an /api/v1 route", async () => `cdr_${"A".repeat(43)}`],
  ["a huge token", async () => `${"a".repeat(6000)}.${"b".repeat(6000)}.${"c".repeat(100)}`],
];

describe("forged and foreign access tokens", () => {
  it("the victim's genuine token works (control)", async () => {
    expect((await t.as(victim.token, { method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(200);
    // Signing the genuine claims with the test helper yields an accepted token: the forgeries
    // below differ from a valid token only in what their name says.
    const resigned = await signToken(claims);
    expect((await t.as(resigned, { method: "GET", url: "/api/v1/users" })).statusCode).toBe(200);
  });

  it.each(attacks)("%s -> 401, never 5xx", async (_name, make) => {
    const token = await make();
    for (const url of ["/api/v1/users/me", "/api/v1/users"]) {
      expectUnauthorized(await t.as(token, { method: "GET", url }));
    }
  });

  it("tolerates at most 30 s of clock skew on exp", async () => {
    const justExpired = await signToken({ ...claims, iat: nowSeconds() - 600, exp: nowSeconds() - 10 });
    expect((await t.as(justExpired, { method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(200);
    const beyondSkew = await signToken({ ...claims, iat: nowSeconds() - 600, exp: nowSeconds() - 45 });
    expectUnauthorized(await t.as(beyondSkew, { method: "GET", url: "/api/v1/users/me" }));
  });

  it("none of the attacks was logged as a server error", () => {
    const errors = t.logs.filter((line) => JSON.parse(line).level >= 50);
    expect(errors).toEqual([]);
  });
});
