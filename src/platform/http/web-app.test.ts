import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/app-Ab12.js"></script></body></html>';
let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "cuadra-web-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), INDEX);
  writeFileSync(join(dist, "assets", "app-Ab12.js"), "console.log('app')");
  t = await createTestApp({}, { webRoot: dist });
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the web app served at /", () => {
  it("answers / with index.html, never cached, under a CSP that lets only its own scripts run", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(res.headers["x-frame-options"]).toBe("DENY");
  });

  it("serves hashed assets with a year-long immutable cache", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/app-Ab12.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it.each(["/projects/budgets", "/accounting/entries?subaccount=4300001", "/login?redirect=%2F"])(
    "answers the browser route %s with index.html (the router takes it from there)",
    async (url) => {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers["cache-control"]).toBe("no-cache");
    },
  );

  it.each(["/api/nope", "/api/v1/nope", "/docs", "/docs/x", "/.well-known/security.txt", "/api"])(
    "keeps the problem+json 404 of %s",
    async (url) => {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    },
  );

  it("a missing asset is a 404, not the app page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/missing-123.js" });
    expect(res.statusCode).toBe(404);
  });

  it("other methods than GET on app paths are still 404 problems", async () => {
    const res = await t.app.inject({ method: "POST", url: "/projects/budgets", payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("the API keeps answering under the app", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" });
    expect(res.statusCode).toBe(200);
  });
});
