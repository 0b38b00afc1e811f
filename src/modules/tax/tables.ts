import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "../../platform/db/columns.js";
import { companyRef } from "../companies/tables.js";
import { DIRECTIONS, taxCodes } from "../documents/tables.js";

/**
 * Tax returns from the books (../shared/design/tax-returns.md): where each tax code's amounts land
 * in each AEAT model (the box map), and the returns themselves with their boxes and their state.
 */

export const TAX_MODELS = ["303", "390", "111", "115", "349"] as const;
export type TaxModel = (typeof TAX_MODELS)[number];

/** Models whose amounts come straight from a tax code (390 sums 303s). */
export const MAPPED_MODELS = ["303", "111", "115", "349"] as const;
export type MappedModel = (typeof MAPPED_MODELS)[number];

/** accrued = IVA devengado (477), deductible = IVA deducible (472); IRPF and 349 use accrued. */
export const BOX_SIDES = ["accrued", "deductible"] as const;
export type BoxSide = (typeof BOX_SIDES)[number];

export const RETURN_STATES = ["borrador", "confirmada", "presentada"] as const;
export type ReturnState = (typeof RETURN_STATES)[number];

/** ordinaria, or complementaria / sustitutiva of a previous return of the same period. */
export const DECLARATION_KINDS = ["ordinaria", "complementaria", "sustitutiva"] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];

/** Page 01 position 13 of the 303 (and 111/115 position 13). */
export const DECLARATION_TYPES = ["I", "U", "G", "D", "X", "V", "C", "N"] as const;
export type DeclarationType = (typeof DECLARATION_TYPES)[number];

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

/**
 * Where a tax code's amounts go in a model, per direction, ordinary or rectifying invoice and side.
 * 303: boxes of the base, the quota and (sales) the recargo's base and quota. 111/115: the base and
 * withholding boxes (the recipients box is the one before the base box). 349: base_box is the
 * operation key (E, A, S, I, T...). A null box means "not declared there".
 */
export const taxBoxMap = pgTable(
  "tax_box_map",
  {
    id: idColumn(),
    companyId: companyRef(),
    model: text("model", { enum: MAPPED_MODELS }).notNull(),
    taxCodeId: uuid("tax_code_id")
      .notNull()
      .references(() => taxCodes.id),
    direction: text("direction", { enum: DIRECTIONS }).notNull(),
    rectifying: boolean("rectifying").notNull(),
    side: text("side", { enum: BOX_SIDES }).notNull(),
    baseBox: text("base_box"),
    quotaBox: text("quota_box"),
    reBaseBox: text("re_base_box"),
    reQuotaBox: text("re_quota_box"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tax_box_map_key").on(t.companyId, t.model, t.taxCodeId, t.direction, t.rectifying, t.side),
    check("tax_box_map_model_known", inList("model", MAPPED_MODELS)),
    check("tax_box_map_side_known", inList("side", BOX_SIDES)),
  ],
);

export const taxReturns = pgTable(
  "tax_returns",
  {
    id: idColumn(),
    companyId: companyRef(),
    model: text("model", { enum: TAX_MODELS }).notNull(),
    year: integer("year").notNull(),
    /** 1T-4T, 01-12, or 0A (annual: 390). */
    period: text("period").notNull(),
    /** The period's first and last day (the lock and the books read them). */
    dateFrom: date("date_from", { mode: "string" }).notNull(),
    dateTo: date("date_to", { mode: "string" }).notNull(),
    estado: text("estado", { enum: RETURN_STATES }).notNull().default("borrador"),
    declarationKind: text("declaration_kind", { enum: DECLARATION_KINDS }).notNull().default("ordinaria"),
    /** The return a complementaria or sustitutiva one refers to. */
    previousReturnId: uuid("previous_return_id").references((): AnyPgColumn => taxReturns.id),
    /** The AEAT receipt (número de justificante, 13 digits) of the previous return. */
    previousReceipt: text("previous_receipt"),
    /** Box code -> amount (decimal string with 2 decimals; counts for recipient boxes). */
    boxes: jsonb("boxes").$type<Record<string, string>>().notNull(),
    /** Boxes the accountant fills (110, 78, 77, 65...), kept apart so recompute keeps them. */
    manualBoxes: jsonb("manual_boxes").$type<Record<string, string>>().notNull().default({}),
    /** 349: the operator and rectification records; 111/115: nothing else. */
    records: jsonb("records").$type<unknown[]>().notNull().default([]),
    declarationType: text("declaration_type", { enum: DECLARATION_TYPES }),
    iban: text("iban"),
    /** The settlement entry (303), posted once. */
    entryId: uuid("entry_id"),
    computedAt: timestamp("computed_at", { withTimezone: true, mode: "date" }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    confirmedBy: uuid("confirmed_by"),
    presentedAt: timestamp("presented_at", { withTimezone: true, mode: "date" }),
    receipt: text("receipt"),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tax_returns_period_key")
      .on(t.companyId, t.model, t.year, t.period)
      .where(sql`${t.previousReturnId} is null`),
    index("tax_returns_lock_idx").on(t.companyId, t.dateFrom).where(sql`${t.estado} <> 'borrador'`),
    check("tax_returns_model_known", inList("model", TAX_MODELS)),
    check("tax_returns_estado_known", inList("estado", RETURN_STATES)),
    check("tax_returns_period_format", sql`${t.period} ~ '^([1-4]T|0[1-9]|1[0-2]|0A)$'`),
    check(
      "tax_returns_previous_kind",
      sql`(${t.declarationKind} = 'ordinaria') = (${t.previousReturnId} is null)`,
    ),
  ],
);

/** What happened to a return and who did it: confirm, settle, present, reopen (audit). */
export const taxReturnEvents = pgTable(
  "tax_return_events",
  {
    id: idColumn(),
    companyId: companyRef(),
    returnId: uuid("return_id")
      .notNull()
      .references(() => taxReturns.id),
    action: text("action").notNull(),
    reason: text("reason").notNull().default(""),
    userId: uuid("user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("tax_return_events_return_idx").on(t.returnId, t.createdAt)],
);

/**
 * What the annual return says of the company and the books cannot (390 page 01, section 3): its
 * main activity, the AEAT activity key (A01-A05, B01-B05, C) and the IAE epígrafe. One row per
 * company, written with PUT /api/tax/settings/{company_id}.
 */
export const taxSettings = pgTable(
  "tax_settings",
  {
    companyId: companyRef().primaryKey(),
    activityDescription: text("activity_description"),
    activityKey: text("activity_key"),
    iaeEpigraph: text("iae_epigraph"),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("tax_settings_activity_key_known", sql`${t.activityKey} ~ '^(A0[1-5]|B0[1-5]|C)$'`),
    check("tax_settings_iae_format", sql`${t.iaeEpigraph} ~ '^[0-9]{3,4}$'`),
  ],
);
