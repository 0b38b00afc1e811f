import type { UploadForm } from "./openapi.js";

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
    credentials?: "jwt" | "jwt-or-api-token" | "mcp-token" | "mcp-token-or-oauth";
    /**
     * A multipart/form-data upload read by the handler (schema `consumes`): its parts, so the
     * OpenAPI document shows the form and "Try it out" can attach the file.
     */
    upload?: UploadForm;
  }
}
