export { AgingPage } from "./AgingPage";
export { PaymentsPage, ReceiptsPage } from "./DuesPage";
export { ForecastPage } from "./ForecastPage";
