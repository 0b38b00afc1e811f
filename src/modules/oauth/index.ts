/** The MCP sign-in: an OAuth 2.1 authorization server per tenant (oidc-provider) and its grants. */
export { createOAuthServers, type OAuthServers } from "./provider.js";
export { authorizationServerRoutes, oauthGrantRoutes, serverOf } from "./routes.js";
export { grantRevokedByServer, resolveAccessToken } from "./service.js";
