/** Purchases (/api/purchases): a thin route module over the documents engine. */

export { loadPurchasesDemo, type PurchasesDemoResult } from "./demo.js";
export { purchaseRoutes } from "./routes.js";
