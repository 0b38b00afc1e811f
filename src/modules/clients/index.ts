/** Customers and suppliers (contacts): the only file other modules, the CLI, MCP and the app import. */
export { loadContactsDemo } from "./demo.js";
export { clientRoutes } from "./routes.js";
export { contactOut, toContactOut } from "./schemas.js";
export { getContact, listContacts } from "./service.js";
export { CONTACT_TYPES } from "./tables.js";
