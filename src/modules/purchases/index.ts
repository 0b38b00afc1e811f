/** Purchases (/api/purchases): a thin route module over the documents engine. */
export { purchaseRoutes } from "./routes.js";
