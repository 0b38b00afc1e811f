/** Companies of a tenant: the only file other modules, the CLI, MCP and the app import. */
export { loadCompanyDemo } from "./demo.js";
export { findCompanyLogo } from "./logo/service.js";
export { companyRoutes } from "./routes.js";
export { companyOut, toCompanyOut } from "./schemas.js";
export {
  type CompanyCreatedHook,
  companyExists,
  findCompany,
  getCompany,
  hasActiveCompany,
  listCompanies,
  onCompanyCreated,
  resolveCompanyForWrite,
} from "./service.js";
