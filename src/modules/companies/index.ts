/** Companies of a tenant: the only file other modules, the CLI, MCP and the app import. */
export { loadCompanyDemo } from "./demo.js";
export { companyRoutes } from "./routes.js";
export { companyExists, getCompany, resolveCompanyForWrite } from "./service.js";
