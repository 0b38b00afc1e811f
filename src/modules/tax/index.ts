/**
 * Tax returns from the books: the box map, the VAT books, modelos 303, 390, 111, 115 and 349 with
 * their AEAT files and settlement entry, and the period lock. Importing it registers the lock on
 * the documents engine and the ledger.
 */
import { registerPeriodLock } from "./lock.js";

registerPeriodLock();

export { loadTaxDemo, type TaxDemoResult } from "./demo.js";
export { layOutBoxes } from "./returns/layout.js";
export { returnBoxOut, toReturnOut } from "./returns/schemas.js";
export { declarationTypeOf, findReturnOfPeriod, resultOf } from "./returns/service.js";
export { taxRoutes } from "./routes.js";
export { toVatBookRowOut, vatBookRowOut } from "./vat-books/schemas.js";
export { listVatBook } from "./vat-books/service.js";
