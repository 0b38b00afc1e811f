import type { Config } from "../config.js";
import type { AuthService } from "../modules/identity/index.js";
import type { TokenService } from "../platform/auth/tokens.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import type { FileStorage } from "../platform/storage.js";

/**
 * What the app builds once and hands to the API surfaces (static, request-independent). Each module's
 * routes declare and receive only what they use: identity the auth service, projects the storage
 * directory, MCP the CORS origins, Redis URL and tenants.
 */
export interface ModuleDeps {
  config: Config & { jwtSecret: string };
  tokens: TokenService;
  auth: AuthService;
  tenants: TenantDirectory;
  /** File storage for uploads; by default on the disk under STORAGE_DIR. */
  fileStorage?: FileStorage;
}
