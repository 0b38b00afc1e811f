/** Companies of a tenant: the only file other modules, the CLI, MCP and the app import. */
export { loadCompanyDemo } from "./demo.js";
export { companyRoutes } from "./routes.js";
export { companyOut, toCompanyOut } from "./schemas.js";
export {
  type CompanyCreatedHook,
  companyExists,
  getCompany,
  hasActiveCompany,
  listCompanies,
  onCompanyCreated,
  resolveCompanyForWrite,
} from "./service.js";
