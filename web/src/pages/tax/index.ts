export { BoxMapPage } from "./BoxMapPage";
export { ReturnDetailPage } from "./ReturnDetailPage";
export { ReturnsPage } from "./ReturnsPage";
export { VatBooksPage } from "./VatBooksPage";
