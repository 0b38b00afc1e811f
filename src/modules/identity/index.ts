/** Identity (auth, users, roles): the only file other modules, the CLI, MCP and the app import. */

export { loadSessionState } from "./auth/auth-state.js";
export { enterpriseAuthRoutes } from "./auth/enterprise-routes.js";
export { type AuthService, createAuthService } from "./auth/service.js";
export { bootstrapIdentity, createAdministrator, resetPassword } from "./bootstrap.js";
export { addPermission, createRole, listPermissionsOfRole, removePermission } from "./roles/service.js";
export { identityRoutesV1 } from "./routes.js";
export {
  actorOfActiveUser,
  createUser,
  emailsOfUsers,
  updateUser,
  userExists,
} from "./users/service.js";
