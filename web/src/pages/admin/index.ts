export { ApiTokensPage } from "./ApiTokensPage";
export { LoginAuditPage } from "./LoginAuditPage";
export { RolesPage } from "./RolesPage";
export { UsersPage } from "./UsersPage";
