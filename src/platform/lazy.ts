/**
 * A dependency few requests need (XLSX and PDF writers, the MCP SDK, PGlite on PostgreSQL, ...)
 * imported on first use instead of at start, so the server's memory after start holds only what
 * every request uses (issue 21, docs/performance.md). Concurrent first callers share one import;
 * a failed import is not cached, so the next call tries again.
 *
 *   const exceljs = lazyImport(() => import("exceljs"));
 *   const { default: ExcelJS } = await exceljs();
 *
 * `test/lint/lazy-imports.test.ts` checks that the server's start loads none of them.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
