import { describe, expect, it } from "vitest";
import type { SessionState } from "./auth-state.js";
import { SessionStateCache } from "./session-cache.js";

const HOUR = 3600;
const CREATED = new Date("2026-01-01T00:00:00Z");
let counter = 0;
function token(userId = "u1", sessionId = "s1") {
  counter += 1;
  return { jti: `j${counter}`, sub: userId, sid: sessionId, exp: Math.floor(Date.now() / 1000) + HOUR };
}
function state(userId = "u1"): SessionState {
  return {
    id: userId,
    email: `${userId}@example.com`,
    full_name: userId,
    company_id: null,
    is_active: true,
    created_at: CREATED,
    updated_at: CREATED,
    session_active: true,
    denied: false,
    epoch: "1",
  };
}
function listeningCache(maxEntries?: number) {
  const cache = new SessionStateCache(maxEntries);
  cache.onListening();
  return cache;
}

describe("SessionStateCache", () => {
  it("is bypassed until LISTEN is in effect: nothing is stored, nothing is answered", () => {
    const cache = new SessionStateCache();
    const t = token();
    cache.store(t, state(), cache.version);
    expect(cache.get(t)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.onListening();
    cache.store(t, state(), cache.version);
    expect(cache.get(t)).toEqual(state());
  });

  it("forgets everything and is bypassed from the moment the connection is lost", () => {
    const cache = listeningCache();
    const t = token();
    cache.store(t, state(), cache.version);
    cache.onLost();
    expect(cache.size).toBe(0);
    cache.store(t, state(), cache.version);
    expect(cache.get(t)).toBeUndefined();
    // Back: starts empty, and caches again.
    cache.onListening();
    expect(cache.get(t)).toBeUndefined();
    cache.store(t, state(), cache.version);
    expect(cache.get(t)).toBeDefined();
  });

  it("does not store a state read before a change it was told about", () => {
    const cache = listeningCache();
    const t = token();
    const before = cache.version;
    cache.onNotify("u:u1"); // arrives while the load is in flight
    cache.store(t, state(), before);
    expect(cache.get(t)).toBeUndefined();
  });

  it("does not store a state read before the connection was lost and listened again", () => {
    const cache = listeningCache();
    const t = token();
    const before = cache.version;
    cache.onLost();
    cache.onListening();
    cache.store(t, state(), before);
    expect(cache.get(t)).toBeUndefined();
  });

  it("forgets by user, session and token as the triggers' payloads and local changes name them", () => {
    const cache = listeningCache();
    const a1 = token("ua", "sa1");
    const a2 = token("ua", "sa2");
    const b = token("ub", "sb");
    const c = token("uc", "sc");
    for (const t of [a1, a2, b, c]) cache.store(t, state(t.sub), cache.version);

    cache.onNotify("u:ua");
    expect(cache.get(a1)).toBeUndefined();
    expect(cache.get(a2)).toBeUndefined();
    expect(cache.get(b)).toBeDefined();

    cache.onNotify(`t:${b.jti}`);
    expect(cache.get(b)).toBeUndefined();
    expect(cache.get(c)).toBeDefined();

    cache.forget({ sessionId: "sc" });
    expect(cache.get(c)).toBeUndefined();
  });

  it("forgets everything on '*' (the authz epoch moved) and on any payload it does not know", () => {
    for (const payload of ["*", "", "something-else"]) {
      const cache = listeningCache();
      const t = token();
      cache.store(t, state(), cache.version);
      cache.onNotify(payload);
      expect(cache.size).toBe(0);
    }
  });

  it("never answers for an expired token, nor for claims that do not match the entry", () => {
    const cache = listeningCache();
    const t = token();
    cache.store(t, state(), cache.version);
    expect(cache.get(t, (t.exp + 1) * 1000)).toBeUndefined();
    expect(cache.size).toBe(0);

    const other = token();
    cache.store(other, state(), cache.version);
    expect(cache.get({ ...other, sub: "someone-else" })).toBeUndefined();
    expect(cache.get({ ...other, sid: "another-session" })).toBeUndefined();
  });

  it("holds at most its bound, dropping the oldest entry", () => {
    const cache = listeningCache(3);
    const tokens = [token(), token(), token(), token()];
    for (const t of tokens) cache.store(t, state(), cache.version);
    expect(cache.size).toBe(3);
    expect(cache.get(tokens[0])).toBeUndefined();
    expect(cache.get(tokens[3])).toBeDefined();
  });
});
