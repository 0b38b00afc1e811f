/** Every route declares who may call it; the guard (platform/auth/guard.ts) enforces it. */
export type AuthRequirement = "public" | "authenticated";

declare module "fastify" {
  interface FastifyContextConfig {
    /** "module:action", e.g. "usuarios:leer": the caller must hold this permission. */
    permission?: string;
    /** Routes with no permission must say whether they are public or for any authenticated caller. */
    auth?: AuthRequirement;
    /** Which credentials the route accepts: user JWTs (default) and/or API tokens (enterprise API). */
    credentials?: "jwt" | "jwt-or-api-token";
  }
}
