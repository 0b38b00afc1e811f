/** Sales (/api/sales): a thin route module over the documents engine. */
export { salesRoutes } from "./routes.js";
export { rectifyBody } from "./schemas.js";
