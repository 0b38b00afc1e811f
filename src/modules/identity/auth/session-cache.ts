import type { DatabaseHandle, Db } from "../../../platform/db/client.js";
import type { NotificationListener } from "../../../platform/db/notifications.js";
import { afterCommit } from "../../../platform/db/sql.js";
import type { SessionState } from "./auth-state.js";

/** Where migration 0024's triggers announce every change to what the JWT guard checks. */
export const AUTH_CHANGES_CHANNEL = "cuadra_auth";

const MAX_ENTRIES = 10_000;

interface Entry {
  userId: string;
  sessionId: string;
  /** The access token's expiry (ms): the entry is never used after it. */
  expiresAt: number;
  state: SessionState;
}

/** Which access tokens a change concerns. */
export type AuthChange = { userId: string } | { sessionId: string } | { jti: string } | "all";

/**
 * The guard's session state (user, session, deny list, authz epoch) of recently seen access
 * tokens, for one database handle (ADR 034). Used only while its LISTEN on AUTH_CHANGES_CHANNEL
 * is in effect: a notification forgets what it names; a lost connection forgets everything and
 * bypasses the cache until LISTEN is back.
 */
export class SessionStateCache implements NotificationListener {
  private readonly entries = new Map<string, Entry>();
  private listening = false;
  /** Moves on every forget: a load that began before a change must not store what it read. */
  private generation = 0;

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** Taken before loading a state from the database; give it back to store(). */
  get version(): number {
    return this.generation;
  }

  get isListening(): boolean {
    return this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  get(claims: { jti: string; sub: string; sid: string }, now = Date.now()): SessionState | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(claims.jti);
    if (!entry) return undefined;
    if (entry.expiresAt <= now || entry.userId !== claims.sub || entry.sessionId !== claims.sid) {
      this.entries.delete(claims.jti);
      return undefined;
    }
    return entry.state;
  }

  /** Remembers a state read from the database, unless anything was forgotten since `version`. */
  store(
    claims: { jti: string; sub: string; sid: string; exp: number },
    state: SessionState,
    version: number,
  ) {
    if (!this.listening || version !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(claims.jti, {
      userId: claims.sub,
      sessionId: claims.sid,
      expiresAt: claims.exp * 1000,
      state,
    });
  }

  forget(change: AuthChange) {
    this.generation++;
    if (change === "all") {
      this.entries.clear();
      return;
    }
    if ("jti" in change) {
      this.entries.delete(change.jti);
      return;
    }
    for (const [jti, entry] of this.entries) {
      if ("userId" in change ? entry.userId === change.userId : entry.sessionId === change.sessionId) {
        this.entries.delete(jti);
      }
    }
  }

  onNotify(payload: string) {
    if (payload.startsWith("u:")) this.forget({ userId: payload.slice(2) });
    else if (payload.startsWith("t:")) this.forget({ jti: payload.slice(2) });
    else this.forget("all");
  }

  onListening() {
    // Whatever changed while nobody listened is unknown: start empty.
    this.forget("all");
    this.listening = true;
  }

  onLost() {
    this.listening = false;
    this.forget("all");
  }
}

/** One cache (and one LISTEN) per database handle: per tenant database and node. */
const caches = new WeakMap<DatabaseHandle, SessionStateCache>();
/** Every cache of this process, for the changes it commits (forgetAfterCommit); gone with their handle. */
const live = new Set<WeakRef<SessionStateCache>>();

export function sessionCacheOf(handle: DatabaseHandle): SessionStateCache {
  let cache = caches.get(handle);
  if (!cache) {
    const created = new SessionStateCache();
    cache = created;
    caches.set(handle, created);
    live.add(new WeakRef(created));
    handle.listen(AUTH_CHANGES_CHANNEL, created);
  }
  return cache;
}

/**
 * Forgets `change` in every cache of this process once `db`'s transaction commits. The triggers'
 * notification does the same on every node, but reaches this node's listener a moment after the
 * commit: this makes the change apply to the very next request here.
 */
export function forgetAfterCommit(db: Db, change: AuthChange) {
  afterCommit(db, () => {
    for (const ref of live) {
      const cache = ref.deref();
      if (cache) cache.forget(change);
      else live.delete(ref);
    }
  });
}
