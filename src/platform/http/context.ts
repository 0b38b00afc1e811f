import type { FastifyRequest } from "fastify";
import type { Actor } from "../auth/actor.js";
import type { Db } from "../db/client.js";
import { inTransaction } from "../db/sql.js";
import type { Tenant } from "../db/tenancy.js";
import { UnauthorizedError } from "./errors.js";

declare module "fastify" {
  interface FastifyRequest {
    tenant: Tenant;
    actor: Actor | null;
  }
}

/** What a service needs of the request: the tenant's database and who is calling. */
export interface Ctx {
  db: Db;
  tenantId: string;
  actor: Actor | null;
}

export interface AuthedCtx extends Ctx {
  actor: Actor;
}

export function ctxOf(request: FastifyRequest): AuthedCtx {
  if (!request.actor) throw new UnauthorizedError();
  return { db: request.tenant.handle.db, tenantId: request.tenant.id, actor: request.actor };
}

export function publicCtxOf(request: FastifyRequest): Ctx {
  return { db: request.tenant.handle.db, tenantId: request.tenant.id, actor: request.actor };
}

/** Runs `work` in one transaction with a context whose db is that transaction (nested: a savepoint). */
export function inCtxTransaction<C extends Ctx, T>(ctx: C, work: (txCtx: C) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, (tx) => work({ ...ctx, db: tx }));
}
