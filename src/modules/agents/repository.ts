import { and, asc, count, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import { likePattern } from "../../platform/http/pagination.js";
import { agents } from "./tables.js";

export type AgentRow = typeof agents.$inferSelect;
export type AgentInsert = typeof agents.$inferInsert;

export interface AgentListFilter {
  scope?: SQL;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function findAgent(db: Db, id: string) {
  const [row] = await db.select().from(agents).where(eq(agents.id, id)).limit(1);
  return row;
}

export async function findAgentOfCompany(db: Db, companyId: string, id: string) {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.companyId, companyId)))
    .limit(1);
  return row;
}

export async function agentCodeTaken(db: Db, companyId: string, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(
        eq(agents.companyId, companyId),
        eq(agents.code, code),
        exceptId ? ne(agents.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function listAgents(db: Db, f: AgentListFilter) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(agents.isActive, true),
    f.search
      ? or(
          ilike(agents.code, likePattern(f.search)),
          ilike(agents.name, likePattern(f.search)),
          ilike(agents.taxId, likePattern(f.search)),
          ilike(agents.email, likePattern(f.search)),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(agents)
        .where(where)
        .orderBy(asc(agents.createdAt), asc(agents.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(agents).where(where),
  );
}

export async function insertAgent(db: Db, values: AgentInsert) {
  const [row] = await db.insert(agents).values(values).returning();
  return row;
}

export async function updateAgent(db: Db, id: string, values: Partial<AgentInsert>) {
  const [row] = await db.update(agents).set(values).where(eq(agents.id, id)).returning();
  return row;
}
