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

export function createTokenService(settings: TokenSettings): TokenService {
  const key = new TextEncoder().encode(settings.secret);
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
        return payload as unknown as TokenClaims;
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
