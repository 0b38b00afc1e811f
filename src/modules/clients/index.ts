/** Customers and suppliers (contacts): the only file other modules, the CLI, MCP and the app import. */
export { loadContactsDemo } from "./demo.js";
export type { ContactRow } from "./repository.js";
export { clientRoutes } from "./routes.js";
export { contactOut, toContactOut } from "./schemas.js";
export { getContact, getContactsByIds, listContacts } from "./service.js";
export { CONTACT_TYPES, TAX_REGIMES, type TaxRegime } from "./tables.js";
