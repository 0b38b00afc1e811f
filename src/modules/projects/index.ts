/** Project cost management (/api/v1): the only file other modules, the CLI, MCP and the app import. */

export { parseBc3 } from "./bc3/parse.js";
export type { Bc3Budget, Bc3Decomposition, Bc3Node } from "./bc3/types.js";
export { writeBc3 } from "./bc3/write.js";
export { loadProjectsDemo } from "./demo.js";
export { type ProjectRoutesOptions, projectRoutesV1 } from "./routes.js";
