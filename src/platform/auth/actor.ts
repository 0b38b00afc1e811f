/** Who is calling: a user (through a JWT) or an API token acting for the user who created it. */
export interface Actor {
  kind: "user" | "api_token";
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
  scopes?: readonly string[];
}
