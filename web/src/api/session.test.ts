import { beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionFetch, loginUrl, tokens } from "./session";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A fake server: `valid` is the access token it accepts; refresh answers with `nextPair` or 401. */
function fakeServer(opts: { valid: string; nextPair?: { access_token: string; refresh_token: string } }) {
  const calls: { url: string; auth: string | null; body: string | null }[] = [];
  let refreshes = 0;
  const net = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url, window.location.origin).pathname;
    const body = request.method === "GET" ? null : await request.text();
    calls.push({ url, auth: request.headers.get("Authorization"), body });
    if (url === "/api/v1/auth/refresh") {
      refreshes++;
      // Slow enough that every concurrent 401 arrives while it is in flight.
      await new Promise((r) => setTimeout(r, 20));
      if (!opts.nextPair || JSON.parse(body ?? "{}").refresh_token !== "refresh-1") {
        return json(401, { title: "Unauthorized", detail: "refresh token revoked" });
      }
      return json(200, { ...opts.nextPair, token_type: "bearer" });
    }
    if (url === "/api/v1/slow") await new Promise((r) => setTimeout(r, 60));
    if (request.headers.get("Authorization") !== `Bearer ${opts.valid}`) {
      return json(401, { title: "Unauthorized", detail: "token expired" });
    }
    return json(200, { ok: true, body });
  });
  return { net, calls, refreshes: () => refreshes };
}

describe("session fetch", () => {
  beforeEach(() => {
    localStorage.clear();
    tokens.set({ access_token: "access-1", refresh_token: "refresh-1" });
  });

  it("sends the access token as a Bearer header", async () => {
    const server = fakeServer({ valid: "access-1" });
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired: vi.fn() });
    const res = await sessionFetch("/api/v1/users/me");
    expect(res.status).toBe(200);
    expect(server.calls[0].auth).toBe("Bearer access-1");
  });

  it("refreshes once for many concurrent 401s, stores the new pair and retries each request with its body", async () => {
    const server = fakeServer({
      valid: "access-2",
      nextPair: { access_token: "access-2", refresh_token: "refresh-2" },
    });
    const onExpired = vi.fn();
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        sessionFetch("/api/v1/budgets", { method: "POST", body: JSON.stringify({ n: i }) }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(server.refreshes()).toBe(1);
    expect(tokens.access).toBe("access-2");
    expect(tokens.refresh).toBe("refresh-2");
    const bodies = await Promise.all(answers.map(async (r) => (await r.json()).body));
    expect(bodies).toEqual([0, 1, 2, 3, 4].map((n) => JSON.stringify({ n })));
    expect(onExpired).not.toHaveBeenCalled();
  });

  it("a request whose 401 arrives after another one refreshed retries with the new token, no second refresh", async () => {
    const server = fakeServer({
      valid: "access-2",
      nextPair: { access_token: "access-2", refresh_token: "refresh-2" },
    });
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired: vi.fn() });
    const [slow, fast] = await Promise.all([sessionFetch("/api/v1/slow"), sessionFetch("/api/v1/users/me")]);
    expect([slow.status, fast.status]).toEqual([200, 200]);
    expect(server.refreshes()).toBe(1);
    expect(server.calls.filter((c) => c.url === "/api/v1/slow").map((c) => c.auth)).toEqual([
      "Bearer access-1",
      "Bearer access-2",
    ]);
  });

  it("when the refresh fails it drops the tokens and ends the session once, without a refresh storm", async () => {
    const server = fakeServer({ valid: "never" });
    const onExpired = vi.fn();
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired });
    const answers = await Promise.all([1, 2, 3].map(() => sessionFetch("/api/v1/users/me")));
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(server.refreshes()).toBe(1);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(tokens.access).toBeNull();
    expect(tokens.refresh).toBeNull();
  });

  it("a 401 from the login route is the answer itself: no refresh", async () => {
    const server = fakeServer({ valid: "x" });
    const onExpired = vi.fn();
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired });
    const res = await sessionFetch("/api/v1/auth/login", { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(server.refreshes()).toBe(0);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it("when the retried request is still refused the session ends", async () => {
    const server = fakeServer({
      valid: "never",
      nextPair: { access_token: "access-2", refresh_token: "refresh-2" },
    });
    const onExpired = vi.fn();
    const sessionFetch = createSessionFetch({ fetch: server.net, onExpired });
    expect((await sessionFetch("/api/v1/users/me")).status).toBe(401);
    expect(server.refreshes()).toBe(1);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(tokens.access).toBeNull();
  });
});

describe("loginUrl", () => {
  it("keeps the page to return to", () => {
    expect(loginUrl({ pathname: "/projects/budgets", search: "?estado=borrador" })).toBe(
      "/login?redirect=%2Fprojects%2Fbudgets%3Festado%3Dborrador",
    );
    expect(loginUrl({ pathname: "/login", search: "?redirect=%2F" })).toBe("/login");
  });
});
