/** Companies of a tenant: the only file other modules, the CLI, MCP and the app import. */
export { loadCompanyDemo } from "./demo.js";
export { companyRoutes } from "./routes.js";
export {
  type CompanyCreatedHook,
  companyExists,
  getCompany,
  onCompanyCreated,
  resolveCompanyForWrite,
} from "./service.js";
