/** API tokens: the only file other modules, the CLI, MCP and the app import. */
export { apiTokenRoutes } from "./routes.js";
export { canUseMcpTool, hasAnyMcpScope, MCP_SCOPE, SCOPE_PATTERN, WILDCARD_SCOPE } from "./scopes.js";
export {
  authenticateApiToken,
  authenticateMcpToken,
  createApiToken,
  resolveApiToken,
} from "./service.js";
