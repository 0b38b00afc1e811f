import { freshDatabase, login, measureInterleaved, report, startApp } from "./lib.js";

/** Issue 2 target: authenticated GET /api/v1/users/me >= 0.7 x GET /api/ready (one trivial query). */
export async function benchIdentity() {
  const { handle } = await freshDatabase("cuadra_bench_identity");
  const { app, base } = await startApp(handle);
  try {
    const token = await login(base);
    const [ready, me] = await measureInterleaved([
      { name: "GET /api/ready", url: `${base}/api/ready` },
      {
        name: "GET /api/v1/users/me (Bearer)",
        url: `${base}/api/v1/users/me`,
        opts: { headers: { authorization: `Bearer ${token}` } },
      },
    ]);
    report("identity", [ready, me], [["users/me / ready", me, ready]]);
  } finally {
    await app.close();
    await handle.close();
  }
}
