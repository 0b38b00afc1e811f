/** One page of rows and how many rows match the filters across all pages. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/**
 * Runs a page query and its count query together (two statements in flight on a pool) and returns
 * them as a Page. `count` is a query selecting `{ total: count() }`.
 */
export async function paginate<T>(
  rows: PromiseLike<T[]>,
  count: PromiseLike<Array<{ total: number | string | bigint }>>,
): Promise<Page<T>> {
  const [page, [counted]] = await Promise.all([rows, count]);
  return { rows: page, total: Number(counted?.total ?? 0) };
}
