import { createSecretKey } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { uuidv7 } from "../ids.js";

export const TOKEN_ISSUER = "cuadra";
export const TOKEN_AUDIENCE = "cuadra-api";
const ALGORITHM = "HS256";
const CLOCK_SKEW_SECONDS = 30;

export type TokenType = "access" | "refresh";

export interface TokenClaims {
  sub: string;
  tid: string;
  sid: string;
  jti: string;
  typ: TokenType;
  iat: number;
  exp: number;
}

export interface TokenSettings {
  secret: string;
  accessTokenMinutes: number;
  refreshTokenDays: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

export interface TokenService {
  issue(
    type: TokenType,
    subject: { userId: string; tenantId: string; sessionId: string },
  ): Promise<IssuedToken>;
  /** Verified claims, or null for any invalid, expired, tampered or foreign token (never throws). */
  verify(token: string, type: TokenType, tenantId: string): Promise<TokenClaims | null>;
  accessTokenSeconds: number;
}

const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(settings: TokenSettings): TokenService {
  const key = createSecretKey(Buffer.from(settings.secret, "utf8"));
  // Signature checks cost ~0.1 ms; a client reuses its access token for many requests. Only exact
  // token strings that already verified are remembered, and only until they expire; revocation is
  // still checked against the database on every request.
  const verified = new Map<string, TokenClaims>();
  const lifetime: Record<TokenType, number> = {
    access: settings.accessTokenMinutes * 60,
    refresh: settings.refreshTokenDays * 86_400,
  };
  return {
    accessTokenSeconds: lifetime.access,
    async issue(type, { userId, tenantId, sessionId }) {
      const jti = uuidv7();
      const now = Math.floor(Date.now() / 1000);
      const exp = now + lifetime[type];
      const token = await new SignJWT({ tid: tenantId, sid: sessionId, typ: type })
        .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
        .setSubject(userId)
        .setJti(jti)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(key);
      return { token, jti, expiresAt: new Date(exp * 1000) };
    },
    async verify(token, type, tenantId) {
      const known = verified.get(token);
      if (known) {
        if (
          known.typ === type &&
          known.tid === tenantId &&
          known.exp + CLOCK_SKEW_SECONDS > Date.now() / 1000
        ) {
          return known;
        }
        if (known.exp + CLOCK_SKEW_SECONDS <= Date.now() / 1000) verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          clockTolerance: CLOCK_SKEW_SECONDS,
          requiredClaims: ["exp", "iat", "jti", "sub", "tid", "sid", "typ"],
        });
        if (payload.typ !== type || payload.tid !== tenantId) return null;
        if (!isUuid(payload.sub) || !isUuid(payload.jti) || !isUuid(payload.sid)) return null;
        const claims = payload as unknown as TokenClaims;
        if (type === "access") {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
          verified.set(token, claims);
        }
        return claims;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
