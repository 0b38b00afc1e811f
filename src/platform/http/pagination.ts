import { z } from "zod";

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

export type { Page } from "../db/paginate.js";

/** Escape LIKE wildcards in user text so `%` and `_` are matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
