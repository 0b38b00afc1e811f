import { z } from "zod";
import { BadRequestError } from "./errors.js";

/** Query-string boolean: "true"/"false"/"1"/"0" (z.coerce.boolean would read "false" as true). */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .describe("true or false");

export const queryDate = z.iso.date({ message: "must be a date YYYY-MM-DD" });

/** /api/v1 lists: `{data, total, limit, offset}`, limit 1..1000 (default 50). */
export const v1ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe("Page size, 1..1000"),
  offset: z.coerce.number().int().min(0).default(0).describe("Rows to skip"),
});
export type V1ListQuery = z.infer<typeof v1ListQuery>;

export const v1Page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });

/** /api lists: `{data, total, skip, limit}`, limit 1..10000 (default 50), search, include_inactive. */
export const apiListQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0).describe("Rows to skip"),
  limit: z.coerce.number().int().min(1).max(10000).default(50).describe("Page size, 1..10000"),
  search: z.string().trim().max(200).optional().describe("Text search"),
  include_inactive: queryBoolean.default(false).describe("Include inactive records"),
});
export type ApiListQuery = z.infer<typeof apiListQuery>;

export const apiPage = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), skip: z.number().int(), limit: z.number().int() });

/**
 * A page of a bounded list (paginateBounded): `total` is exact up to 10,000 matching rows; beyond
 * that, the planner's estimate and `total_is_estimate: true`.
 */
export const apiBoundedPage = <T extends z.ZodType>(item: T) =>
  apiPage(item).extend({
    total: z
      .number()
      .int()
      .describe(
        "Rows matching the filters: exact up to 10,000, the database's estimate beyond (total_is_estimate)",
      ),
    total_is_estimate: z
      .boolean()
      .describe("true when more than 10,000 rows match and total is an estimate, not a count"),
  });

/** `after`: keyset pagination beside skip; the page starts right after that row in the list's order. */
export const afterCursorQuery = z
  .uuid({ message: "must be a UUID" })
  .optional()
  .describe(
    "Keyset cursor: the id of the last row of the previous page. The page continues after it in the same order " +
      "and filters, reading from the index (page 100 costs what page 1 costs); combine with skip=0",
  );

/** The 400 when `after` is not a row of the list asked for (another company's, another filter's, none). */
export function unknownCursorError(noun: string): BadRequestError {
  return new BadRequestError(`after: no ${noun} of this list has that id`, [
    { path: "after", message: "must be the id of a row of the same list, with the same filters" },
  ]);
}

export type { Page } from "../db/paginate.js";

/** Escape LIKE wildcards in user text so `%` and `_` are matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
