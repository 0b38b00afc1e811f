import { createHash, randomBytes } from "node:crypto";

export const API_TOKEN_PREFIX = "cdr_";

/** 32 random bytes, shown once as cdr_<base64url>; only the SHA-256 hex is stored. */
export function generateApiToken(): { token: string; keyHash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, keyHash: hashApiToken(token), prefix: token.slice(0, 12) };
}

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
