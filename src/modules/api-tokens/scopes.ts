/** Access rules (resource_name) an API token can carry. */
export const REST_SCOPE = "api_access";
export const MCP_SCOPE = "mcp";
export const WILDCARD_SCOPE = "*";
export const MCP_AREAS = [
  "invoices",
  "purchase_invoices",
  "contacts",
  "products",
  "accounting",
  "treasury",
  "banking",
  "tax",
] as const;

export const SCOPE_PATTERN = /^(\*|api_access|mcp|mcp:[a-z_]+)$/;

export const canUseRest = (scopes: readonly string[]) =>
  scopes.includes(REST_SCOPE) || scopes.includes(WILDCARD_SCOPE);

export const hasAnyMcpScope = (scopes: readonly string[]) =>
  scopes.some((s) => s === MCP_SCOPE || s === WILDCARD_SCOPE || s.startsWith("mcp:"));

/** May a token with these rules call an MCP tool needing `toolScope` (e.g. "mcp:contacts")? */
export const canUseMcpTool = (scopes: readonly string[], toolScope: string) =>
  scopes.includes(MCP_SCOPE) || scopes.includes(WILDCARD_SCOPE) || scopes.includes(toolScope);
