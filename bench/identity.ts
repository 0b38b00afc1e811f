import { freshDatabase, login, measureInterleaved, report, startApp } from "./lib.js";

/**
 * Issues 2 and 21: authenticated GET /api/v1/users/me against GET /api/ready (one trivial query),
 * target >= 0.8 (issue 21), with the session-state cache (ADR 034) and without it (as before).
 */
export async function benchIdentity() {
  const { handle } = await freshDatabase("cuadra_bench_identity");
  const { app, base } = await startApp(handle);
  const uncached = await startApp(handle, { AUTH_SESSION_CACHE: "off" });
  try {
    const token = await login(base);
    const bearer = { headers: { authorization: `Bearer ${token}` } };
    const [ready, me, meUncached] = await measureInterleaved([
      { name: "GET /api/ready", url: `${base}/api/ready` },
      { name: "GET /api/v1/users/me (Bearer)", url: `${base}/api/v1/users/me`, opts: bearer },
      {
        name: "GET /api/v1/users/me (Bearer, AUTH_SESSION_CACHE=off)",
        url: `${uncached.base}/api/v1/users/me`,
        opts: bearer,
      },
    ]);
    report(
      "identity",
      [ready, me, meUncached],
      [
        ["users/me / ready", me, ready],
        ["users/me cache off / ready", meUncached, ready],
      ],
    );
  } finally {
    await uncached.app.close();
    await app.close();
    await handle.close();
  }
}
