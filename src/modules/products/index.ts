/** Products and their families: the only file other modules, the CLI, MCP and the app import. */
export { loadProductsDemo } from "./demo.js";
export { productOut, toProductOut } from "./products/schemas.js";
export { getProduct, getProductsForDocuments, listProducts } from "./products/service.js";
export { productsModuleRoutes } from "./routes.js";
