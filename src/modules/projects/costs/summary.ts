import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { queryOne } from "../../../platform/db/sql.js";
import { NotFoundError } from "../../../platform/http/errors.js";
import { type Dec, dec, sum } from "../../../platform/money.js";

/** One budget node as the summary query returns it; amounts are decimal strings. */
interface NodeRow {
  id: string;
  parent_id: string | null;
  kind: string;
  code: string;
  summary: string;
  unit: string;
  position: number;
  amount: string;
  certified: string;
  actual_cost: string;
}

interface SummaryRow {
  id: string;
  code: string;
  name: string;
  estado: string;
  certification_number: number | null;
  unassigned_cost: string;
  nodes: NodeRow[] | string;
}

export interface Figures {
  budgeted: Dec;
  certified: Dec;
  actualCost: Dec;
}

export interface SummaryNode extends Figures {
  id: string;
  code: string;
  kind: string;
  summary: string;
  unit: string;
  children: SummaryNode[];
}

export interface CostSummary {
  budget: { id: string; code: string; name: string; estado: string };
  /** The latest validated certification, whose to-origin amounts are "certified". */
  certificationNumber: number | null;
  chapters: SummaryNode[];
  unassignedCost: Dec;
  totals: Figures;
}

/**
 * Every figure of the summary in ONE round trip: the budget, its nodes with their own amount,
 * certified amount (latest validated certification) and direct cost, and the unassigned cost.
 * Amounts leave the database as text so they never become floating point.
 */
function summaryQuery(budgetId: string) {
  return sql`
    with latest as (
      select id, number from certifications
       where budget_id = ${budgetId} and estado = 'validada'
       order by number desc limit 1
    ),
    certified as (
      select cl.budget_item_id, cl.quantity_to_origin
        from certification_lines cl join latest on latest.id = cl.certification_id
    ),
    costs as (
      select budget_item_id, sum(net_amount) as actual_cost
        from cost_entries where budget_id = ${budgetId}
       group by budget_item_id
    ),
    nodes as (
      select i.id, i.parent_id, i.kind, i.code, i.summary, i.unit, i.position,
             case when i.kind = 'item' then i.amount else 0 end as amount,
             round(coalesce(c.quantity_to_origin, 0) * i.unit_price, 2) as certified,
             coalesce(k.actual_cost, 0) as actual_cost
        from budget_items i
        left join certified c on c.budget_item_id = i.id
        left join costs k on k.budget_item_id = i.id
       where i.budget_id = ${budgetId}
    )
    select b.id, b.code, b.name, b.estado,
           (select number from latest) as certification_number,
           (select coalesce(sum(actual_cost), 0)::text from costs where budget_item_id is null) as unassigned_cost,
           (select coalesce(json_agg(json_build_object(
                      'id', n.id, 'parent_id', n.parent_id, 'kind', n.kind, 'code', n.code,
                      'summary', n.summary, 'unit', n.unit, 'position', n.position,
                      'amount', n.amount::text, 'certified', n.certified::text,
                      'actual_cost', n.actual_cost::text)), '[]'::json)
              from nodes n) as nodes
      from budgets b
     where b.id = ${budgetId}`;
}

const byPositionThenCode = (a: NodeRow, b: NodeRow) =>
  a.position - b.position || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/** Nests the nodes; a chapter's figures are the sums of its children's plus what is charged to it directly. */
export function buildSummaryTree(rows: readonly NodeRow[]): SummaryNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const childrenOf = new Map<string | null, NodeRow[]>();
  for (const row of rows) {
    const parent = row.parent_id && ids.has(row.parent_id) ? row.parent_id : null;
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(row);
    childrenOf.set(parent, siblings);
  }
  const build = (row: NodeRow): SummaryNode => {
    const children = (childrenOf.get(row.id) ?? []).sort(byPositionThenCode).map(build);
    return {
      id: row.id,
      code: row.code,
      kind: row.kind,
      summary: row.summary,
      unit: row.unit,
      budgeted: dec(row.amount).plus(sum(children.map((c) => c.budgeted))),
      certified: dec(row.certified).plus(sum(children.map((c) => c.certified))),
      actualCost: dec(row.actual_cost).plus(sum(children.map((c) => c.actualCost))),
      children,
    };
  };
  return (childrenOf.get(null) ?? []).sort(byPositionThenCode).map(build);
}

export async function costSummary(db: Db, budgetId: string): Promise<CostSummary> {
  const row = await queryOne<SummaryRow>(db, summaryQuery(budgetId));
  if (!row) throw new NotFoundError("Budget");
  const nodes: NodeRow[] = typeof row.nodes === "string" ? JSON.parse(row.nodes) : row.nodes;
  const chapters = buildSummaryTree(nodes);
  const unassignedCost = dec(row.unassigned_cost);
  return {
    budget: { id: row.id, code: row.code, name: row.name, estado: row.estado },
    certificationNumber: row.certification_number,
    chapters,
    unassignedCost,
    totals: {
      budgeted: sum(chapters.map((c) => c.budgeted)),
      certified: sum(chapters.map((c) => c.certified)),
      actualCost: sum(chapters.map((c) => c.actualCost)).plus(unassignedCost),
    },
  };
}
