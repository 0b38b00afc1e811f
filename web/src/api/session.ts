/**
 * The session as the reference front end keeps it: both tokens in localStorage, `Authorization:
 * Bearer` on every request, and on a 401 one refresh — shared by every request that failed at the
 * same time, never one per request — then the request once more; when the refresh fails the tokens
 * are dropped and the user goes to /login with the page to come back to.
 */

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

const ACCESS_KEY = "cuadra.access_token";
const REFRESH_KEY = "cuadra.refresh_token";
const REFRESH_URL = "/api/v1/auth/refresh";
/** Answers of these are about the credentials themselves: a 401 there is final. */
const NO_RETRY = ["/api/v1/auth/login", "/api/v1/auth/refresh", "/api/auth/login", "/api/auth/refresh"];

export const tokens = {
  get access(): string | null {
    return localStorage.getItem(ACCESS_KEY);
  },
  get refresh(): string | null {
    return localStorage.getItem(REFRESH_KEY);
  },
  set(pair: TokenPair) {
    localStorage.setItem(ACCESS_KEY, pair.access_token);
    localStorage.setItem(REFRESH_KEY, pair.refresh_token);
  },
  clear() {
    localStorage.removeItem(ACCESS_KEY);
    localStorage.removeItem(REFRESH_KEY);
  },
};

export interface SessionOptions {
  /** The network; `fetch` by default (tests pass their own). */
  fetch?: typeof fetch;
  /** Called once the session is lost; by default goes to /login?redirect=<current page>. */
  onExpired?: () => void;
}

export function loginUrl(location: Pick<Location, "pathname" | "search"> = window.location): string {
  const back = location.pathname + location.search;
  return back.startsWith("/login") ? "/login" : `/login?redirect=${encodeURIComponent(back)}`;
}

export function createSessionFetch(options: SessionOptions = {}): typeof fetch {
  const net = options.fetch ?? ((input, init) => fetch(input, init));
  const onExpired = options.onExpired ?? (() => window.location.assign(loginUrl()));
  let refreshing: Promise<boolean> | null = null;

  async function refresh(): Promise<boolean> {
    const refreshToken = tokens.refresh;
    if (!refreshToken) return false;
    try {
      const res = await net(REFRESH_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      if (!res.ok) return false;
      tokens.set((await res.json()) as TokenPair);
      return true;
    } catch {
      return false;
    }
  }

  /** Every caller arriving while a refresh is in flight waits for that same refresh. */
  function refreshOnce(): Promise<boolean> {
    refreshing ??= refresh()
      .then((ok) => {
        if (!ok) expire();
        return ok;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  function expire() {
    tokens.clear();
    onExpired();
  }

  function withBearer(request: Request, token: string | null): Request {
    const next = new Request(request);
    if (token) next.headers.set("Authorization", `Bearer ${token}`);
    else next.headers.delete("Authorization");
    return next;
  }

  return async function sessionFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const path = new URL(request.url, window.location.origin).pathname;
    const sentWith = tokens.access;
    // Kept unread so the request can be sent a second time after the refresh.
    const spare = request.clone();
    const res = await net(withBearer(request, sentWith));
    if (res.status !== 401 || NO_RETRY.includes(path) || !sentWith) return res;

    // Another request may have renewed the tokens since this one left: use them, no new refresh.
    const renewed = tokens.access !== sentWith || (await refreshOnce());
    if (!renewed || !tokens.access) return res;
    const retry = await net(withBearer(spare, tokens.access));
    if (retry.status === 401) expire();
    return retry;
  };
}
