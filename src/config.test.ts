import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { nodeEntry } from "../test/helpers/cli-process.js";
import { ConfigError, isTimeZone, loadConfig } from "./config.js";
import { wasmOnBaselineCode } from "./runtime/database.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8000,
      host: "0.0.0.0",
      publicUrl: "http://localhost:8000",
      dataDir: "./data",
      accessTokenMinutes: 30,
      refreshTokenDays: 7,
      adminEmail: "admin@example.com",
      logLevel: "info",
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.jwtSecret).toBeUndefined();
    expect(c.adminPassword).toBeUndefined();
    expect(c.corsOrigins).toEqual(
      expect.arrayContaining(["http://localhost:5173", "http://localhost:42210", "http://localhost:8000"]),
    );
  });

  it("derives PUBLIC_URL from PORT and HOST, and the default origins follow it", () => {
    const wildcard = loadConfig({ PORT: "9123" });
    expect(wildcard.publicUrl).toBe("http://localhost:9123");
    expect(wildcard.corsOrigins).toEqual(
      expect.arrayContaining(["http://localhost:9123", "http://127.0.0.1:9123"]),
    );
    expect(wildcard.corsOrigins).not.toContain("http://localhost:8000");
    expect(loadConfig({ PORT: "9124", HOST: "127.0.0.1" }).publicUrl).toBe("http://127.0.0.1:9124");
    expect(loadConfig({ PORT: "9125", HOST: "::" }).publicUrl).toBe("http://localhost:9125");
    const named = loadConfig({ PORT: "9126", HOST: "books.lan" });
    expect(named.publicUrl).toBe("http://books.lan:9126");
    expect(named.corsOrigins).toContain("http://books.lan:9126");
    expect(named.corsOrigins).not.toContain("http://localhost:9126");
    expect(loadConfig({ PORT: "9127", HOST: "fd00::5" }).publicUrl).toBe("http://[fd00::5]:9127");
    expect(loadConfig({ PORT: "9128", PUBLIC_URL: "https://books.example.com" }).publicUrl).toBe(
      "https://books.example.com",
    );
  });

  it("adds PUBLIC_URL's origin to the default CORS origins", () => {
    const c = loadConfig({ PUBLIC_URL: "https://cuadra.example.com/base/" });
    expect(c.publicUrl).toBe("https://cuadra.example.com/base");
    expect(c.corsOrigins).toEqual(
      expect.arrayContaining([
        "http://localhost:5173",
        "http://localhost:42210",
        "https://cuadra.example.com",
      ]),
    );
  });

  it("takes CORS_ORIGINS as a comma-separated list instead of the defaults", () => {
    const c = loadConfig({ CORS_ORIGINS: " https://a.example , https://b.example,," });
    expect(c.corsOrigins).toEqual(["https://a.example", "https://b.example"]);
  });

  it("reads every variable", () => {
    const c = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://u:p@db:5432/cuadra",
      JWT_SECRET: "s".repeat(32),
      DATA_DIR: "/var/lib/cuadra",
      ACCESS_TOKEN_EXPIRE_MINUTES: "5",
      REFRESH_TOKEN_EXPIRE_DAYS: "1",
      ADMIN_EMAIL: "Boss@Example.com",
      ADMIN_PASSWORD: "boss-password",
      LOG_LEVEL: "warn",
    });
    expect(c).toMatchObject({
      port: 9000,
      host: "127.0.0.1",
      databaseUrl: "postgres://u:p@db:5432/cuadra",
      jwtSecret: "s".repeat(32),
      dataDir: "/var/lib/cuadra",
      accessTokenMinutes: 5,
      refreshTokenDays: 1,
      adminEmail: "boss@example.com",
      adminPassword: "boss-password",
      logLevel: "warn",
    });
  });

  it("treats empty values as unset", () => {
    const c = loadConfig({ DATABASE_URL: "", JWT_SECRET: " ", ADMIN_PASSWORD: "" });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.jwtSecret).toBeUndefined();
    expect(c.adminPassword).toBeUndefined();
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ ACCESS_TOKEN_EXPIRE_MINUTES: "0" }, "ACCESS_TOKEN_EXPIRE_MINUTES"],
    [{ REFRESH_TOKEN_EXPIRE_DAYS: "-1" }, "REFRESH_TOKEN_EXPIRE_DAYS"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET"],
    [{ ADMIN_EMAIL: "not-an-email" }, "ADMIN_EMAIL"],
    [{ ADMIN_PASSWORD: "short" }, "ADMIN_PASSWORD"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
  ])("%j -> ConfigError naming %s", (env, variable) => {
    const err = configError(env);
    expect(err.message).toContain(variable);
    expect(err.issues.some((i) => i.startsWith(`${variable}:`))).toBe(true);
  });

  it("requires JWT_SECRET with DATABASE_URL", () => {
    const err = configError({ DATABASE_URL: "postgres://db/cuadra" });
    expect(err.message).toContain("JWT_SECRET");
    expect(() =>
      loadConfig({ DATABASE_URL: "postgres://db/cuadra", JWT_SECRET: "x".repeat(32) }),
    ).not.toThrow();
  });

  it("reports every bad variable at once", () => {
    const err = configError({ PORT: "abc", LOG_LEVEL: "loud" });
    expect(err.issues).toHaveLength(2);
  });
});

describe("npm start with a bad value", () => {
  it("exits with code 1 and prints the message", async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    env.PORT = "abc";
    env.DATA_DIR = "/nonexistent/never-created";
    // What `npm start` runs (dist/main.js), without npm; the sources through tsx when dist/ is stale.
    const child = spawn(process.execPath, nodeEntry("main"), {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(output).toContain("Invalid configuration");
    expect(output).toContain("PORT");
    expect(output).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  }, 60_000);
});

describe("SHUTDOWN_GRACE_SECONDS", () => {
  it("defaults to 15 seconds and refuses anything but a positive whole number", () => {
    expect(loadConfig({}).shutdownGraceSeconds).toBe(15);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: "40" }).shutdownGraceSeconds).toBe(40);
    expect(configError({ SHUTDOWN_GRACE_SECONDS: "0" }).message).toContain("SHUTDOWN_GRACE_SECONDS");
    expect(configError({ SHUTDOWN_GRACE_SECONDS: "soon" }).message).toContain("SHUTDOWN_GRACE_SECONDS");
  });
});

describe("TRUST_PROXY", () => {
  it("is off by default, on with true, and refuses anything else", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(configError({ TRUST_PROXY: "yes" }).message).toContain("TRUST_PROXY");
  });
});

describe("VERIFACTU_TIMEZONE", () => {
  it("takes canonical IANA zones and their aliases, and refuses anything else", () => {
    for (const zone of ["Europe/Madrid", "Atlantic/Canary", "UTC", "US/Eastern", "europe/madrid"])
      expect(loadConfig({ VERIFACTU_TIMEZONE: zone }).verifactu.timezone).toBe(zone);
    for (const zone of ["Mars/Olympus", "Madrid", "+01:00"])
      expect(() => loadConfig({ VERIFACTU_TIMEZONE: zone })).toThrow(/VERIFACTU_TIMEZONE/);
  });

  it("checks a canonical zone without loading ICU's zone data (a DateTimeFormat)", () => {
    const built = vi.spyOn(Intl, "DateTimeFormat");
    try {
      expect(isTimeZone("Europe/Madrid")).toBe(true);
      expect(isTimeZone("Atlantic/Canary")).toBe(true);
      expect(built).not.toHaveBeenCalled();
      expect(isTimeZone("US/Eastern")).toBe(true);
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
    }
  });
});

describe("PGLITE_WASM_OPTIMIZE", () => {
  it("is off by default, on with true, and refuses anything else", () => {
    expect(loadConfig({}).pgliteWasmOptimize).toBe(false);
    expect(loadConfig({ PGLITE_WASM_OPTIMIZE: "false" }).pgliteWasmOptimize).toBe(false);
    expect(loadConfig({ PGLITE_WASM_OPTIMIZE: "true" }).pgliteWasmOptimize).toBe(true);
    expect(configError({ PGLITE_WASM_OPTIMIZE: "1" }).message).toContain("PGLITE_WASM_OPTIMIZE");
  });

  it("leaves every process that opens the embedded database on baseline code unless it is true", () => {
    // The server, a CLI command run directly and `npm run mcp` reading DATA_DIR all ask this (ADR 045).
    expect(wasmOnBaselineCode(loadConfig({}))).toBe(true);
    expect(wasmOnBaselineCode(loadConfig({ PGLITE_WASM_OPTIMIZE: "true" }))).toBe(false);
    const postgres = { DATABASE_URL: "postgres://cuadra@127.0.0.1:5432/cuadra", JWT_SECRET: "x".repeat(32) };
    expect(wasmOnBaselineCode(loadConfig(postgres))).toBe(false);
  });
});
