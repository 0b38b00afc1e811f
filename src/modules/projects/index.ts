/** Project cost management (/api/v1): the only file other modules, the CLI, MCP and the app import. */

export { parseBc3 } from "./bc3/parse.js";
export type { Bc3Budget, Bc3Decomposition, Bc3Node } from "./bc3/types.js";
export { writeBc3 } from "./bc3/write.js";
export { type ImportedBudget, importBudget } from "./bc3-io/service.js";
export { budgetOut, toBudgetOut } from "./budgets/schemas.js";
export { type BudgetView, getBudget, getBudgetByCode, listBudgets } from "./budgets/service.js";
export {
  certificationOut,
  certificationSummaryOut,
  toCertificationOut,
  toCertificationSummaryOut,
} from "./certifications/schemas.js";
export { getCertification, listCertifications } from "./certifications/service.js";
export { costSummaryOut, toCostSummaryOut } from "./costs/schemas.js";
export { getCostSummary } from "./costs/service.js";
export { loadProjectsDemo } from "./demo.js";
export { type ProjectRoutesOptions, projectRoutesV1 } from "./routes.js";
export { BUDGET_STATES, CERTIFICATION_STATES } from "./tables.js";
