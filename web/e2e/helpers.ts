import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const base = () => process.env.E2E_BASE_URL!;
export const ADMIN = { email: "admin@example.com", password: () => process.env.E2E_ADMIN_PASSWORD! };
const SHOTS = resolve(import.meta.dirname, "artifacts", "screenshots");
const DIST = resolve(import.meta.dirname, "..", "dist");

/** A euro amount as the page shows it ("1.234,56 €") read back as a number, for comparisons in tests. */
export const parseEuros = (text: string) => Number(text.replace(/[^\d,-]/g, "").replace(",", "."));

export async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${base()}/login`);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await expect(page.getByTestId("dashboard")).toBeVisible();
}

export async function apiLogin(email: string, password: string) {
  const res = await fetch(`${base()}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

export async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Saves a full-page screenshot under e2e/artifacts/screenshots (gitignored). */
export async function shot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map(
      (v) =>
        `${v.id} (${v.impact}) on ${page.url()}: ${v.nodes
          .slice(0, 3)
          .map(
            (n) =>
              `${n.target.join(" ")} [${n.any.map((c) => c.message).join("; ")}] ${n.html.slice(0, 120)}`,
          )
          .join(" | ")}`,
    ),
  ).toEqual([]);
}

/** Gzipped size of the built JavaScript files a page loaded (the server sends them uncompressed). */
export function gzippedBytes(urls: string[]): number {
  return urls.reduce(
    (sum, url) => sum + gzipSync(readFileSync(resolve(DIST, `.${new URL(url).pathname}`))).length,
    0,
  );
}
