/** Sales agents: the only file other modules, the CLI, MCP and the app import. */
export { loadAgentsDemo } from "./demo.js";
export { agentRoutes } from "./routes.js";
export { findAgentOfCompany } from "./service.js";
