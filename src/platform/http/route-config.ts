/** Every route declares who may call it; the guard (platform/auth/guard.ts) enforces it. */
export type AuthRequirement = "public" | "authenticated";

declare module "fastify" {
  interface FastifyContextConfig {
    /** "module:action", e.g. "usuarios:leer": the caller must hold this permission. */
    permission?: string;
    /** Routes with no permission must say whether they are public or for any authenticated caller. */
    auth?: AuthRequirement;
    /**
     * Which credentials the route accepts: user JWTs (default), JWTs or API tokens with the
     * api_access rule (enterprise API), or only API tokens with an MCP rule (the MCP server).
     */
    credentials?: "jwt" | "jwt-or-api-token" | "mcp-token";
  }
}
