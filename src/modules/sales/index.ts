/** Sales (/api/sales): a thin route module over the documents engine. */
export { loadSalesDemo, type SalesDemoResult } from "./demo.js";
export { salesRoutes } from "./routes.js";
export { rectifyBody } from "./schemas.js";
