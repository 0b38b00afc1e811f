/**
 * Who is calling: a user (through a JWT), an API token acting for the user who created it, or an
 * assistant's OAuth access token acting for the user who consented (MCP only).
 */
export interface Actor {
  kind: "user" | "api_token" | "oauth";
  userId: string;
  email: string;
  fullName: string;
  /** "module:action" strings. */
  permissions: ReadonlySet<string>;
  /** The same, sorted, when authentication already had them so (GET /users/me). */
  sortedPermissions?: readonly string[];
  roles: { id: string; name: string }[];
  /** User JWT callers: the user record as loaded by authentication (saves /users/me a query). */
  createdAt?: Date;
  updatedAt?: Date;
  /** Enterprise API: restricted to one company (null = all companies of the tenant). */
  companyId: string | null;
  /** JWT callers: the session and token ids (logout needs them). */
  sessionId?: string;
  tokenJti?: string;
  tokenExpiresAt?: Date;
  /** API token callers: the token id and its access rules (resource_name values). */
  apiTokenId?: string;
  /** OAuth callers: the grant the access token belongs to. */
  oauthGrantId?: string;
  /** API token and OAuth callers: the access rules or granted scopes. */
  scopes?: readonly string[];
}
