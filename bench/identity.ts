import { freshDatabase, login, measure, report, startApp } from "./lib.js";

/** Issue 2 target: authenticated GET /api/v1/users/me >= 0.7 x GET /api/ready (one trivial query). */
export async function benchIdentity() {
  const { handle } = await freshDatabase("cuadra_bench_identity");
  const { app, base } = await startApp(handle);
  try {
    const token = await login(base);
    const ready = await measure("GET /api/ready", `${base}/api/ready`);
    const me = await measure("GET /api/v1/users/me (Bearer)", `${base}/api/v1/users/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    report("identity", [ready, me], [["users/me / ready", me, ready]]);
  } finally {
    await app.close();
    await handle.close();
  }
}
