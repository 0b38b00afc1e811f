/** Bank reconciliation (/api/bank-reconciliation): the only file other modules, the CLI, MCP and the app import. */
export { type BankingDemoResult, loadBankingDemo } from "./demo.js";
export { writeNorma43 } from "./formats/norma43-write.js";
export { movementOut, toMovementOut } from "./movements/schemas.js";
export { listMovements, type MovementListFilters } from "./movements/service.js";
export { bankingRoutes } from "./routes.js";
export { MOVEMENT_STATES } from "./tables.js";
