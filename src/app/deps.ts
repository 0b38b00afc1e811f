import type { Config } from "../config.js";
import type { AuthService } from "../modules/identity/auth/service.js";
import type { TokenService } from "../platform/auth/tokens.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";

/** What route plugins may receive: static, request-independent services and settings. */
export interface ModuleDeps {
  config: Config & { jwtSecret: string };
  tokens: TokenService;
  auth: AuthService;
  tenants: TenantDirectory;
}
