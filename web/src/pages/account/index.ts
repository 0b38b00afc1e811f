export { AssistantsPage } from "./AssistantsPage";
