import { freshDatabase, login, startApp } from "./lib.js";

/**
 * The server of `npm run bench -- mcp`, in a process of its own so the bench can read the
 * server's CPU per request apart from the load generator's and the SDK clients' (/proc/PID/stat).
 * A fresh PostgreSQL database with one company and 200 contacts; prints {base, token} as one JSON
 * line once it listens, and closes on SIGTERM. BENCH_MCP_DATABASE names the database (a baseline
 * checkout's server runs beside this one on another).
 */
async function main() {
  const { handle } = await freshDatabase(process.env.BENCH_MCP_DATABASE ?? "cuadra_bench_mcp");
  const { app, base } = await startApp(handle);
  const jwt = await login(base);
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`bench setup ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; token?: string };
  };
  const company = await call("/api/companies", { name: "Bench SL", tax_id: "B12345674" });
  for (let i = 0; i < 200; i++) {
    await call("/api/clients", {
      company_id: company.id,
      contact_type: i % 3 === 0 ? "supplier" : "customer",
      name: `Contact ${String(i).padStart(3, "0")}`,
      email: `contact${i}@example.com`,
      city: "Madrid",
    });
  }
  const { token } = await call("/api/api-tokens", { name: "bench", scopes: ["api_access", "mcp"] });
  process.once("SIGTERM", () => {
    void app
      .close()
      .then(() => handle.close())
      .finally(() => process.exit(0));
  });
  process.stdout.write(`${JSON.stringify({ base, token })}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
