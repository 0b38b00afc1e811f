import { Column, type DriverValueDecoder, is, SQL } from "drizzle-orm";
import { type PgDialect, PgSelectBase } from "drizzle-orm/pg-core";
import type { Db } from "./client.js";

interface Prepared<R> {
  execute(placeholders?: Record<string, unknown>): Promise<R>;
}

/** What drizzle's builders (and `preparedSql`) offer: a statement made once, run with placeholder values. */
export interface Preparable<R> {
  prepare(name: string): Prepared<R>;
  execute(placeholders?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot read that drizzle builds once per database object and then runs as a named prepared
 * statement with `sql.placeholder(...)` values: nothing is built per request. Building a
 * 40-column select (drizzle's `is()` checks walking prototype chains) was ~8 % of the server's
 * CPU on a detail route (issue 21, docs/performance.md). A transaction is a new database object
 * each time, so inside one the statement is built for it (as any query would be).
 */
export function preparedRead<R, P extends Record<string, unknown>>(
  name: string,
  build: (db: Db) => { prepare(name: string): Prepared<R> },
): (db: Db, placeholders: P) => Promise<R> {
  const byDb = new WeakMap<Db, Prepared<R>>();
  return (db, placeholders) => {
    let query = byDb.get(db);
    if (!query) {
      query = prepareOn(db, build(db), name);
      byDb.set(db, query);
    }
    return query.execute(placeholders);
  };
}

/** Prepared shapes per `preparedByShape` read: beyond this many, a new shape is built per call. */
export const MAX_PREPARED_SHAPES = 32;

/**
 * A read whose SQL depends on which filters a request gives (a list's filter shape), as named
 * prepared statements: `build(db, shape)` makes the statement of one shape with every value a
 * `sql.placeholder`, once per database object and shape, named `<name>_<n>` (n: the shape's rank of
 * first use in this process, so a name always stands for the same text on a connection). The SQL
 * must depend on `shape` alone, never on a value: the values travel as placeholders, so another
 * company's id can never be baked into a cached statement. At most `maxShapes` shapes are prepared;
 * past that, a rare combination is built on every call and runs unnamed (as before this helper), so
 * neither this process nor a PostgreSQL connection keeps an unbounded set of statements.
 */
export function preparedByShape<R, P extends Record<string, unknown>>(
  name: string,
  build: (db: Db, shape: string) => Preparable<R>,
  maxShapes = MAX_PREPARED_SHAPES,
): (db: Db, shape: string, placeholders: P) => Promise<R> {
  const rankOf = new Map<string, number>();
  const byDb = new WeakMap<Db, Map<string, Prepared<R>>>();
  return (db, shape, placeholders) => {
    let rank = rankOf.get(shape);
    if (rank === undefined) {
      if (rankOf.size >= maxShapes) return prepareOn(db, build(db, shape)).execute(placeholders);
      rank = rankOf.size;
      rankOf.set(shape, rank);
    }
    let shapes = byDb.get(db);
    if (!shapes) {
      shapes = new Map();
      byDb.set(db, shapes);
    }
    let query = shapes.get(shape);
    if (!query) {
      query = prepareOn(db, build(db, shape), `${name}_${rank}`);
      shapes.set(shape, query);
    }
    return query.execute(placeholders);
  };
}

/** Shape key of a filter: which of these keys hold a value (undefined, null and "" do not). */
export function shapeOf(filter: Record<string, unknown>, keys: readonly string[]): string {
  let shape = "";
  for (const key of keys) {
    const value = filter[key];
    shape += value === undefined || value === null || value === "" ? "0" : "1";
  }
  return shape;
}

type Internals = { dialect: PgDialect; _: { session: Db["_"]["session"] } };

/**
 * Raw SQL (`sql` template with `sql.placeholder` values) as something `preparedRead` and
 * `preparedByShape` can prepare; it answers like `db.execute` (a result with `rows`).
 */
export function preparedSql<T>(db: Db, query: SQL): Preparable<{ rows: T[] }> {
  const { dialect, _ } = db as unknown as Internals;
  const built = dialect.sqlToQuery(query);
  const make = (name: string | undefined) =>
    _.session.prepareQuery(built, undefined, name, false) as unknown as Prepared<{ rows: T[] }>;
  return { prepare: make, execute: (placeholders) => make(undefined).execute(placeholders) };
}

type Decoder = DriverValueDecoder<unknown, unknown>;

/**
 * How to turn a driver row (an array, in select order) into the object drizzle would give, for a
 * flat selection of columns and typed `sql`: an object literal of the selection's keys, compiled
 * once per statement. Drizzle's own `mapResultRow` re-checks every value's field kind (`is()`, a
 * prototype walk) and walks its path on every row, and a loop storing by computed key is a
 * megamorphic store per value: on a page of 50 document headers of 48 columns (issue 21) drizzle
 * costs ~4x this and the loop ~2x. The keys are the selection's own property names (the schema's,
 * never a request's), written as JSON string literals; values go through each column's decoder as
 * in drizzle. Undefined for anything else (nested objects, subqueries), which drizzle keeps mapping.
 */
function flatRowMapper(fields: Record<string, unknown>): ((rows: unknown[][]) => unknown[]) | undefined {
  const props: string[] = [];
  const decoders: Decoder[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (key === "__proto__") return undefined;
    if (is(field, Column)) decoders.push(field);
    else if (is(field, SQL)) decoders.push((field as unknown as { decoder: Decoder }).decoder);
    else if (is(field, SQL.Aliased)) decoders.push((field.sql as unknown as { decoder: Decoder }).decoder);
    else return undefined;
    const i = props.length;
    props.push(`${JSON.stringify(key)}: r[${i}] === null ? null : d[${i}].mapFromDriverValue(r[${i}])`);
  }
  const mapRow = new Function("d", "r", `return { ${props.join(", ")} };`) as (
    d: Decoder[],
    r: unknown[],
  ) => unknown;
  return (rows) => rows.map((row) => mapRow(decoders, row));
}

type SelectInternals = { _: { config: { fields: Record<string, unknown> } }; getSQL(): SQL };

/**
 * `built.prepare(name)` (no name: run unnamed), except that a flat select (flatRowMapper) has its
 * rows mapped by the compiled literal: the same SQL, the same objects.
 */
function prepareOn<R>(
  db: Db,
  built: { prepare(name: string): Prepared<R>; execute?: Preparable<R>["execute"] },
  name?: string,
): Prepared<R> {
  const select = is(built, PgSelectBase) ? (built as unknown as SelectInternals) : undefined;
  const mapper = select && flatRowMapper(select._.config.fields);
  if (!select || !mapper) {
    if (name !== undefined) return built.prepare(name);
    return { execute: (placeholders) => (built as Preparable<R>).execute(placeholders) };
  }
  const { dialect, _ } = db as unknown as Internals;
  return _.session.prepareQuery(
    dialect.sqlToQuery(select.getSQL()),
    undefined,
    name,
    true,
    mapper,
  ) as unknown as Prepared<R>;
}
