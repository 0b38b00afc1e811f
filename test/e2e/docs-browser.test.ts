/**
 * The docs pages in a real browser (Chromium, headless): Swagger UI and ReDoc render under their
 * Content-Security-Policy with no violation, no page error and no request leaving the server
 * (offline). CI installs Debian's chromium; CHROMIUM_PATH points elsewhere.
 */
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let t: TestApp;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  }
  t = await createTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Watch {
  violations: string[];
  errors: string[];
  external: string[];
}

/** A page that records CSP violations, console errors, page errors and requests to other origins (aborted). */
async function watchedPage(): Promise<{ page: Page; watch: Watch }> {
  const watch: Watch = { violations: [], errors: [], external: [] };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("blob:") || url.startsWith("data:")) return route.continue();
    watch.external.push(url);
    return route.abort();
  });
  await page.exposeFunction("__cspViolation", (v: string) => watch.violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on("console", (msg) => {
    if (msg.type() === "error") watch.errors.push(msg.text());
  });
  page.on("pageerror", (err) => watch.errors.push(err.message));
  return { page, watch };
}

function expectClean(watch: Watch) {
  expect(watch.violations, "CSP violations").toEqual([]);
  expect(watch.external, "requests leaving the server").toEqual([]);
  expect(watch.errors, "console and page errors").toEqual([]);
}

describe.each([
  ["/api/v1", "budgets", "importBudgetFromBc3"],
  ["/api", "bank-reconciliation", "importBankStatement"],
])("docs under %s in Chromium", (prefix, tag, uploadOperation) => {
  it("Swagger UI renders every operation under its CSP, offline, and Try it out can attach a file", async () => {
    const { page, watch } = await watchedPage();
    const res = await page.goto(`${origin}${prefix}/docs/`);
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.locator(".opblock").first().waitFor({ timeout: 60_000 });
    expect(await page.locator(".opblock").count()).toBeGreaterThan(20);

    await page.goto(`${origin}${prefix}/docs/#/${tag}/${uploadOperation}`);
    const operation = page.locator(`#operations-${tag.replace(/ /g, "_")}-${uploadOperation}`);
    await operation.waitFor({ timeout: 60_000 });
    if (!(await operation.locator(".try-out").isVisible()))
      await operation.locator(".opblock-summary").click();
    await operation.locator(".try-out__btn").click();
    await expect(operation.locator('input[type="file"]').count()).resolves.toBe(1);
    expectClean(watch);
    await page.context().close();
  }, 120_000);

  it("ReDoc renders under its CSP, offline", async () => {
    const { page, watch } = await watchedPage();
    const res = await page.goto(`${origin}${prefix}/redoc`);
    expect(res?.headers()["content-security-policy"]).toContain("worker-src 'self' blob:");
    await page
      .locator(`[id="operation/${uploadOperation}"]`)
      .first()
      .waitFor({ state: "attached", timeout: 90_000 });
    expect(await page.locator("[data-section-id^='operation/']").count()).toBeGreaterThan(20);
    expectClean(watch);
    await page.context().close();
  }, 150_000);
});
