import { z } from "zod";
import * as projects from "../../modules/projects/index.js";
import {
  BUDGET_STATES,
  budgetOut,
  CERTIFICATION_STATES,
  certificationOut,
  certificationSummaryOut,
  costSummaryOut,
  toBudgetOut,
  toCertificationOut,
  toCertificationSummaryOut,
  toCostSummaryOut,
} from "../../modules/projects/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { defineTool, limitArg, offsetArg, pageOf, toolArgs, uuidArg } from "../tool-kit.js";

const budgetAccess = { scope: "mcp:projects", permission: "budgets:leer" };
/** Certifications are read with the permission the REST routes ask for, so a token never reads more. */
const certificationAccess = { scope: "mcp:projects", permission: "certifications:leer" };
/** Actual costs are behind accounting:leer in the REST API; get_budget shows them only with it. */
const COSTS_PERMISSION = "accounting:leer";

const budgetNotFound = "Look the budget up with list_budgets (search by code, name or client).";

const budgetState = z
  .enum(BUDGET_STATES, { message: `estado must be one of ${BUDGET_STATES.join(", ")}` })
  .optional()
  .describe(BUDGET_STATES.join(", "));

export const listBudgets = defineTool({
  name: "list_budgets",
  title: "List project budgets",
  description:
    "Lists the project budgets (presupuestos de obra) this token can see, oldest first, with their " +
    "percentages and totals (pem, pec, discounted, vat, total). Filter by estado and search (code, name " +
    "or client name). Returns {items, total, limit, offset}; use get_budget for one budget's chapters.",
  access: budgetAccess,
  notFoundHint: budgetNotFound,
  input: toolArgs({
    estado: budgetState,
    search: z
      .string()
      .trim()
      .max(200, { message: "search is at most 200 characters" })
      .optional()
      .describe("Text contained in the code, name or client name"),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(budgetOut),
  async run(ctx, args) {
    const { rows, total } = await projects.listBudgets(ctx, {
      estado: args.estado,
      search: args.search || undefined,
      limit: args.limit,
      offset: args.offset,
    });
    return {
      items: rows.map((v) => toBudgetOut(v.row, v.totals)),
      total,
      limit: args.limit,
      offset: args.offset,
    };
  },
});

const chapterFigures = costSummaryOut.shape.totals;
const chapterOut = chapterFigures.extend({
  id: z.uuid(),
  code: z.string(),
  summary: z.string(),
});

const budgetDetailOut = budgetOut.extend({
  cost_summary: z
    .object({
      certification_number: costSummaryOut.shape.certification_number,
      chapters: z.array(chapterOut).describe("Top-level chapters, in budget order, with their figures"),
      unassigned_cost: costSummaryOut.shape.unassigned_cost,
      totals: chapterFigures,
    })
    .nullable()
    .describe(
      "Budgeted, certified (latest validated certification), actual cost and margin per chapter; null " +
        "when the token's user lacks accounting:leer (actual costs)",
    ),
});

export const getBudget = defineTool({
  name: "get_budget",
  title: "Budget detail with chapter summary",
  description:
    "One project budget by budget_id or by code (give exactly one): its percentages and totals, and " +
    "per top-level chapter the budgeted amount, the amount certified to origin by the latest validated " +
    "certification, the actual cost (cost entries), the margin (certified - actual) and the deviation. " +
    "Amounts are decimal strings in euros.",
  access: budgetAccess,
  notFoundHint: budgetNotFound,
  input: toolArgs({
    budget_id: uuidArg("budget_id", "list_budgets").optional(),
    code: z
      .string()
      .trim()
      .min(1, { message: "code must not be empty" })
      .max(50, { message: "code is at most 50 characters" })
      .optional()
      .describe("The budget's code, e.g. OBRA01"),
  }),
  output: budgetDetailOut,
  async run(ctx, args) {
    if ((args.budget_id === undefined) === (args.code === undefined)) {
      throw new BadRequestError("Give exactly one of budget_id and code", [
        { path: "budget_id", message: "or code is required, not both" },
      ]);
    }
    const view = args.budget_id
      ? await projects.getBudget(ctx, args.budget_id)
      : await projects.getBudgetByCode(ctx, args.code!);
    let costSummary: z.input<typeof budgetDetailOut>["cost_summary"] = null;
    if (ctx.actor.permissions.has(COSTS_PERMISSION)) {
      const summary = toCostSummaryOut(await projects.getCostSummary(ctx, view.row.id));
      costSummary = {
        certification_number: summary.certification_number,
        chapters: summary.chapters.map(
          ({ children: _children, kind: _kind, unit: _unit, ...chapter }) => chapter,
        ),
        unassigned_cost: summary.unassigned_cost,
        totals: summary.totals,
      };
    }
    return { ...toBudgetOut(view.row, view.totals), cost_summary: costSummary };
  },
});

const certificationNotFound =
  "Look the certification up with list_certifications (filter by budget_id from list_budgets).";

export const listCertifications = defineTool({
  name: "list_certifications",
  title: "List certifications",
  description:
    "Lists the certifications (certificaciones de obra) of the budgets this token can see, oldest " +
    "first: number, period, state. Filter by budget_id and estado. Returns {items, total, limit, " +
    "offset}; use get_certification for one certification's lines and totals.",
  access: certificationAccess,
  notFoundHint: certificationNotFound,
  input: toolArgs({
    budget_id: uuidArg("budget_id", "list_budgets").optional(),
    estado: z
      .enum(CERTIFICATION_STATES, { message: `estado must be one of ${CERTIFICATION_STATES.join(", ")}` })
      .optional()
      .describe(CERTIFICATION_STATES.join(", ")),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(certificationSummaryOut),
  async run(ctx, args) {
    const { rows, total } = await projects.listCertifications(ctx, {
      budgetId: args.budget_id,
      estado: args.estado,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toCertificationSummaryOut), total, limit: args.limit, offset: args.offset };
  },
});

export const getCertification = defineTool({
  name: "get_certification",
  title: "Certification detail",
  description:
    "One certification by its id: per budget item the budgeted quantity, unit price and the quantity " +
    "and amount to origin, previous (the last validated certification) and this period; and the totals " +
    "(PEM, overheads, profit, discount, VAT, retention, net payable). Amounts are decimal strings in euros.",
  access: certificationAccess,
  notFoundHint: certificationNotFound,
  input: toolArgs({ certification_id: uuidArg("certification_id", "list_certifications") }),
  output: certificationOut,
  async run(ctx, args) {
    return toCertificationOut(await projects.getCertification(ctx, args.certification_id));
  },
});
