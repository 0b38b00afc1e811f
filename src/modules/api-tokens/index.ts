/** API tokens: the only file other modules, the CLI, MCP and the app import. */
export { apiTokenRoutes } from "./routes.js";
export { canUseMcpTool, hasAnyMcpScope, MCP_AREAS, SCOPE_PATTERN, WILDCARD_SCOPE } from "./scopes.js";
export {
  authenticateApiToken,
  authenticateMcpToken,
  type CreateTokenInput,
  createApiToken,
  resolveApiToken,
} from "./service.js";
