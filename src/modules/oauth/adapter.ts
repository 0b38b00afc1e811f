import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { oauthModels } from "./tables.js";

type Payload = Record<string, unknown>;

const SWEEP_INTERVAL_MS = 3600_000;

/**
 * oidc-provider's storage adapter over the tenant's database (table oauth_models): one instance
 * per model name. Expired rows are never returned; consume() marks the payload as oidc-provider
 * expects (a consumed code or refresh token presented again is how it detects reuse).
 */
export function drizzleAdapter(db: () => Promise<Db>) {
  let lastSweep = 0;
  /** Expired artifacts are dropped a day after they expire, at most once an hour per process. */
  async function sweep(handle: Db) {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = Date.now();
    await handle.delete(oauthModels).where(lt(oauthModels.expiresAt, sql`now() - interval '1 day'`));
  }

  return class DrizzleAdapter {
    constructor(readonly kind: string) {}

    private live(id: string) {
      return and(
        eq(oauthModels.kind, this.kind),
        eq(oauthModels.id, id),
        or(isNull(oauthModels.expiresAt), gt(oauthModels.expiresAt, sql`now()`)),
      );
    }

    async upsert(id: string, payload: Payload, expiresIn?: number) {
      const row = {
        kind: this.kind,
        id,
        payload,
        grantId: typeof payload.grantId === "string" ? payload.grantId : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        userCode: typeof payload.userCode === "string" ? payload.userCode : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      const handle = await db();
      await sweep(handle);
      await handle
        .insert(oauthModels)
        .values(row)
        .onConflictDoUpdate({
          target: [oauthModels.kind, oauthModels.id],
          set: {
            payload: row.payload,
            grantId: row.grantId,
            uid: row.uid,
            userCode: row.userCode,
            expiresAt: row.expiresAt,
          },
        });
    }

    async find(id: string): Promise<Payload | undefined> {
      const [row] = await (await db())
        .select({ payload: oauthModels.payload })
        .from(oauthModels)
        .where(this.live(id));
      return row?.payload;
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const [row] = await (await db())
        .select({ payload: oauthModels.payload })
        .from(oauthModels)
        .where(
          and(
            eq(oauthModels.kind, this.kind),
            eq(oauthModels.uid, uid),
            or(isNull(oauthModels.expiresAt), gt(oauthModels.expiresAt, sql`now()`)),
          ),
        );
      return row?.payload;
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const [row] = await (await db())
        .select({ payload: oauthModels.payload })
        .from(oauthModels)
        .where(
          and(
            eq(oauthModels.kind, this.kind),
            eq(oauthModels.userCode, userCode),
            or(isNull(oauthModels.expiresAt), gt(oauthModels.expiresAt, sql`now()`)),
          ),
        );
      return row?.payload;
    }

    async consume(id: string) {
      await (await db())
        .update(oauthModels)
        .set({
          consumedAt: sql`now()`,
          payload: sql`${oauthModels.payload} || jsonb_build_object('consumed', extract(epoch from now())::bigint)`,
        })
        .where(and(eq(oauthModels.kind, this.kind), eq(oauthModels.id, id)));
    }

    async destroy(id: string) {
      await (await db())
        .delete(oauthModels)
        .where(and(eq(oauthModels.kind, this.kind), eq(oauthModels.id, id)));
    }

    /** Every artifact of a grant, whatever its model (a revoked grant leaves no token behind). */
    async revokeByGrantId(grantId: string) {
      await revokeGrantArtifacts(await db(), grantId);
    }
  };
}

export async function revokeGrantArtifacts(db: Db, grantId: string) {
  await db
    .delete(oauthModels)
    .where(
      or(eq(oauthModels.grantId, grantId), and(eq(oauthModels.kind, "Grant"), eq(oauthModels.id, grantId))),
    );
}
