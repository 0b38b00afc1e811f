/**
 * The OAuth sign-in and consent pages in a real browser (Chromium, headless): the forms are found
 * by their labels, work without JavaScript, raise no CSP violation (form-action must let the final
 * redirect reach the assistant), and the browser lands on the assistant's redirect_uri with a code.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { TEST_ADMIN } from "../../test/helpers/constants.js";
import { freePort } from "../../test/helpers/net.js";
import { REDIRECT_URI, startMetadataHost } from "../modules/oauth/test-support.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let t: TestApp;
let base: string;
let browser: Browser;
let host: Awaited<ReturnType<typeof startMetadataHost>>;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: base, OAUTH_CIMD_ALLOW_HTTP_LOOPBACK: "true" });
  await t.app.listen({ port, host: "127.0.0.1" });
  host = await startMetadataHost();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await t?.close();
});

describe("sign-in and consent in Chromium", () => {
  it("signs in, consents by label, and returns to the assistant with a code and iss", async () => {
    const clientId = host.publish("/browser.json");
    const url = new URL("/oauth/authorize", base);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "mcp:contacts mcp:accounting",
      state: "b1",
      resource: `${base}/api/mcp`,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    })) {
      url.searchParams.set(k, v);
    }
    const context = await browser.newContext({ javaScriptEnabled: false, locale: "es-ES" });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    let landed: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/plain", body: "back in the assistant" });
    });

    await page.goto(url.href);
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await page.getByLabel("Correo electrónico").fill(TEST_ADMIN.email);
    await page.getByLabel("Contraseña").fill(TEST_ADMIN.password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();

    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Conceder acceso a un asistente",
    );
    await page.getByLabel("Empresa").selectOption("all");
    await page.getByLabel("Contabilidad").uncheck();
    await page.getByRole("button", { name: "Permitir acceso de solo lectura" }).click();
    await page.waitForURL(`${REDIRECT_URI}**`);

    expect(landed?.searchParams.get("code")).toBeTruthy();
    expect(landed?.searchParams.get("iss")).toBe(base);
    expect(landed?.searchParams.get("state")).toBe("b1");
    expect(violations).toEqual([]);
    const grants = await t.as(t.adminToken, { method: "GET", url: "/api/oauth/grants" });
    expect(grants.json().data[0].scopes).toEqual(["mcp:contacts"]);
    await context.close();
  });
});
