/** Access rules (resource_name) an API token can carry. */
export const REST_SCOPE = "api_access";
export const MCP_SCOPE = "mcp";
export const WILDCARD_SCOPE = "*";
/** Lets a token create tokens (never wider than itself). Explicit: "*" does not include it. */
export const TOKENS_SCOPE = "api_tokens";
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

export const SCOPE_PATTERN = /^(\*|api_access|api_tokens|mcp|mcp:[a-z_]+)$/;

export const canUseRest = (scopes: readonly string[]) =>
  scopes.includes(REST_SCOPE) || scopes.includes(WILDCARD_SCOPE);

export const hasAnyMcpScope = (scopes: readonly string[]) =>
  scopes.some((s) => s === MCP_SCOPE || s === WILDCARD_SCOPE || s.startsWith("mcp:"));

/**
 * May a token with these rules call an MCP tool needing `toolScope` (e.g. "mcp:contacts")? A tool
 * needing plain "mcp" (list_companies, list_fiscal_years) is open to any MCP rule.
 */
export const canUseMcpTool = (scopes: readonly string[], toolScope: string) =>
  toolScope === MCP_SCOPE
    ? hasAnyMcpScope(scopes)
    : scopes.includes(MCP_SCOPE) || scopes.includes(WILDCARD_SCOPE) || scopes.includes(toolScope);

/** Does a token holding `held` hold `scope` too (so it may give it to a token it creates)? */
export const coversScope = (held: readonly string[], scope: string) =>
  held.includes(scope) ||
  (scope !== TOKENS_SCOPE && held.includes(WILDCARD_SCOPE)) ||
  (scope.startsWith("mcp:") && held.includes(MCP_SCOPE));
