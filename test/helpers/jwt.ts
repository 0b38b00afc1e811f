import { decodeJwt, type JWTPayload, SignJWT } from "jose";
import { TEST_JWT_SECRET } from "./constants.js";

export const TEST_KEY = new TextEncoder().encode(TEST_JWT_SECRET);

/** Signs claims as the server would (HS256, issuer cuadra, audience cuadra-api) unless told otherwise. */
export async function signToken(
  claims: JWTPayload,
  opts: { key?: Uint8Array; alg?: string; issuer?: string | null; audience?: string | null } = {},
) {
  let jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: opts.alg ?? "HS256", typ: "JWT" });
  if (opts.issuer !== null) jwt = jwt.setIssuer(opts.issuer ?? "cuadra");
  if (opts.audience !== null) jwt = jwt.setAudience(opts.audience ?? "cuadra-api");
  return jwt.sign(opts.key ?? TEST_KEY);
}

/** The claims of a token the server issued (not verified). */
export const claimsOf = (token: string) => decodeJwt(token) as Required<JWTPayload> & Record<string, unknown>;

export const nowSeconds = () => Math.floor(Date.now() / 1000);
