/** Test setup of the projects module for other modules' tests (budgets and items straight to the tables). */

export { multipartFile } from "./budgets/test-support.js";
export { insertBudget, insertItem, setBudgetEstado } from "./certifications/test-support.js";
