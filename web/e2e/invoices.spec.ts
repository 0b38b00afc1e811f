import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, parseEuros, shot, signIn } from "./helpers";

interface Named {
  id: string;
  name: string;
}
interface InvoiceOut {
  id: string;
  code: string | null;
  estado: string;
  totals: { net: string; total: string; irpf: string };
}

const today = new Date().toISOString().slice(0, 10);

async function firstContact(type: "customer" | "supplier"): Promise<Named> {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const res = await api<{ data: Named[] }>(access_token, "GET", `/api/clients?contact_type=${type}&limit=1`);
  return res.data[0];
}

/** Opens a Mantine Select by its label, types to filter and takes the first matching option. */
async function pick(page: Page, label: string, text: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(text);
  await page
    .getByRole("option", { name: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) })
    .first()
    .click();
}

async function totalShown(page: Page) {
  await expect(page.getByTestId("invoice-totals")).toHaveAttribute("aria-busy", "false");
  return parseEuros(await page.getByTestId("invoice-total").innerText());
}

test("a sales invoice: two lines with live totals from the server, issued, its PDF downloaded", async ({
  page,
}) => {
  const customer = await firstContact("customer");
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/sales/invoices`);
  await page.getByRole("link", { name: "Nueva factura" }).click();
  await expect(page).toHaveURL(/\/sales\/invoices\/new$/);
  await expect(page.getByText("Elija el tercero")).toBeVisible();

  // A bad quantity is named on its field and nothing is computed from it.
  await pick(page, "Cliente", customer.name);
  await page.getByLabel("Descripción 1").fill("Dirección de obra, noviembre");
  await page.getByLabel("Cantidad 1").fill("2");
  await page.getByLabel("Precio 1").fill("1.250,50");
  const first = await totalShown(page);
  expect(first).toBeGreaterThan(2501);
  await expect(page.getByTestId("line-net-1")).toContainText("2501,00");

  await page.getByRole("button", { name: "Añadir línea" }).click();
  await page.getByLabel("Descripción 2").fill("Alquiler de andamio");
  await page.getByLabel("Cantidad 2").fill("3,5");
  await page.getByLabel("Precio 2").fill("80");
  await page.getByLabel("Dto. % 2").fill("10");
  await pick(page, "IVA 2", "IVA10");
  await expect(page.getByTestId("line-net-2")).toContainText("252,00");
  const second = await totalShown(page);
  expect(second).toBeGreaterThan(first);
  await expectAccessible(page);
  await shot(page, "invoice-editor-draft");

  await page.getByLabel("Cantidad 2").fill("3,5x");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Cantidad no válida")).toBeVisible();
  await expect(page).toHaveURL(/\/sales\/invoices\/new$/);
  await page.getByLabel("Cantidad 2").fill("3,5");

  // Saved as a draft: the page shows what the server stored.
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/sales\/invoices\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1) as string;
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const draft = await api<InvoiceOut>(access_token, "GET", `/api/sales/invoices/${id}`);
  expect(draft.estado).toBe("borrador");
  expect(Number(draft.totals.total)).toBeCloseTo(second, 2);
  await expect(page.getByTestId("invoice-state")).toHaveText("borrador");

  await page.getByRole("button", { name: "Emitir" }).click();
  await expect(page.getByTestId("invoice-state")).toHaveText("emitida");
  const issued = await api<InvoiceOut>(access_token, "GET", `/api/sales/invoices/${id}`);
  expect(issued.code).toMatch(/^FV\d{4}-\d{6}$/);
  await expect(page.getByRole("heading", { name: new RegExp(issued.code as string) })).toBeVisible();
  await expect(page.getByRole("button", { name: "Guardar" })).toHaveCount(0);
  expect(await totalShown(page)).toBeCloseTo(Number(issued.totals.total), 2);
  await expectAccessible(page);
  await shot(page, "invoice-editor-issued");

  // The notifications sit over the header's buttons until they close (a hovered one stays open).
  await page.mouse.move(600, 700);
  await expect(page.getByText(`Emitir: ${issued.code}`)).toBeHidden();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "PDF" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");

  // The list links to it, issued.
  await page.getByRole("button", { name: "Volver" }).click();
  await expect(page.getByRole("link", { name: issued.code as string })).toBeVisible();
});

test("a supplier invoice with IRPF: recorded pending, a repeated number refused, approved from the list", async ({
  page,
}) => {
  const supplier = await firstContact("supplier");
  const number = `E2E-${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/purchases/invoices`);
  await page.getByRole("link", { name: "Registrar factura recibida" }).click();
  await expect(page).toHaveURL(/\/purchases\/invoices\/new$/);

  const fill = async () => {
    await pick(page, "Proveedor", supplier.name);
    await page.getByLabel("Número del proveedor").fill(number);
    await page.getByLabel("Fecha", { exact: true }).fill(today);
    await page.getByLabel("Descripción 1").fill("Honorarios de arquitecto");
    await page.getByLabel("Cantidad 1").fill("1");
    await page.getByLabel("Precio 1").fill("1000");
    await pick(page, "IRPF 1", "IRPF15");
  };
  await fill();
  await expect(page.getByTestId("invoice-totals")).toContainText("IRPF 15 %");
  expect(await totalShown(page)).toBeCloseTo(1060, 2);
  await expectAccessible(page);
  await shot(page, "supplier-invoice-editor");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/purchases\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("invoice-state")).toHaveText("pendiente");

  // The same supplier number again: the server's 409 detail is shown, nothing is created.
  await page.goto(`${base()}/purchases/invoices/new`);
  await fill();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: number })).toBeVisible();
  await expect(page).toHaveURL(/\/purchases\/invoices\/new$/);

  await page.goto(`${base()}/purchases/invoices`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: number }) });
  await row.getByRole("button", { name: "Aprobar" }).click();
  await expect(row.getByText("aprobada")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "supplier-invoices-approved");
});

test("an open sales order becomes a draft invoice, opened in the editor with the server's totals", async ({
  page,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/sales/orders`);
  await expect(page.getByRole("heading", { name: "Presupuestos y pedidos" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "sales-orders");
  await page.getByRole("button", { name: "Facturar" }).first().click();
  await expect(page).toHaveURL(/\/sales\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("invoice-state")).toHaveText("borrador");
  const id = page.url().split("/").at(-1) as string;
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const draft = await api<InvoiceOut & { sources: { kind: string }[] }>(
    access_token,
    "GET",
    `/api/sales/invoices/${id}`,
  );
  expect(draft.sources.map((s) => s.kind)).toContain("order");
  expect(await totalShown(page)).toBeCloseTo(Number(draft.totals.total), 2);
});

test("a supplier's estimate becomes an order, and an order a draft purchase invoice under the supplier's number", async ({
  page,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/purchases/orders`);
  await expect(page.getByRole("heading", { name: "Presupuestos y pedidos a proveedores" })).toBeVisible();
  const kinds = page.getByRole("radiogroup", { name: "Presupuestos y pedidos a proveedores" });
  await kinds.getByText("Presupuestos", { exact: true }).click();
  await page.getByRole("button", { name: "Convertir en pedido" }).first().click();
  await expect(page.getByRole("radio", { name: "Pedidos" })).toBeChecked();

  await page.getByRole("button", { name: "Facturar" }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel(/Número de factura del proveedor/)).toBeFocused();
  await expectAccessible(page);
  await shot(page, "purchase-orders-invoice");
  const number = `PROV-E2E-${Date.now()}`;
  await dialog.getByLabel(/Número de factura del proveedor/).fill(number);
  await dialog.getByRole("button", { name: "Facturar" }).click();
  await expect(page).toHaveURL(/\/purchases\/invoices\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1) as string;
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const draft = await api<InvoiceOut & { supplier_number: string; sources: { kind: string }[] }>(
    access_token,
    "GET",
    `/api/purchases/invoices/${id}`,
  );
  expect(draft.supplier_number).toBe(number);
  expect(draft.sources.map((s) => s.kind)).toContain("order");
});

test("a user who may only read sales sees invoices without edit buttons and the refusal on a new one", async ({
  browser,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const role = await api<{ id: string }>(access_token, "POST", "/api/v1/roles", {
    name: `ventas-lectura-${Date.now()}`,
  });
  // Reading the companies lets the app pick the company whose invoices it lists.
  for (const modulo of ["sales", "companies"])
    await api(access_token, "POST", `/api/v1/roles/${role.id}/permissions`, { modulo, accion: "leer" });
  const email = `ventas${Date.now()}@example.com`;
  await api(access_token, "POST", "/api/v1/users", {
    email,
    password: "Ventas-2026!",
    full_name: "Lectora Ventas",
    role_ids: [role.id],
  });
  const page = await (
    await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "es-ES" })
  ).newPage();
  await signIn(page, email, "Ventas-2026!");
  await page.goto(`${base()}/sales/invoices`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Nueva factura" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Emitir" })).toHaveCount(0);
  await page.locator("tbody tr a").first().click();
  await expect(page.getByTestId("invoice-total")).toBeVisible();
  await expect(page.getByRole("button", { name: "PDF" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Guardar" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Emitir" })).toHaveCount(0);
  await expect(page.getByLabel("Cantidad 1")).toHaveAttribute("readonly", "");
  await page.goto(`${base()}/sales/invoices/new`);
  await expect(page.getByRole("alert")).toContainText("no tiene permiso para registrar facturas");
});

test.describe("the journal with 10,000 entries", () => {
  let server: ChildProcess | undefined;
  let url = "";
  let dataDir = "";
  const ROOT = resolve(import.meta.dirname, "../..");

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const started = Date.now();
    dataDir = mkdtempSync(join(tmpdir(), "cuadra-e2e-journal-"));
    server = spawn(join(ROOT, "node_modules", ".bin", "tsx"), ["web/e2e/journal-server.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password(),
        JWT_SECRET: "e2e-only-secret-e2e-only-secret-0123456789",
        LOG_LEVEL: "warn",
        E2E_JOURNAL_ENTRIES: "10000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    url = await new Promise<string>((ok, fail) => {
      let out = "";
      server?.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening (\S+)/.exec(out);
        if (m) ok(m[1]);
      });
      server?.once("exit", (code) => fail(new Error(`journal server exited (${code})`)));
    });
    console.log(
      `[e2e figure] journal server: 10,000 entries seeded and listening in ${Date.now() - started} ms`,
    );
  });
  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server?.once("exit", r));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("scrolls to the end without a blank screen", async ({ page }) => {
    const started = Date.now();
    await page.goto(`${url}/login`);
    await page.getByLabel("Correo electrónico").fill(ADMIN.email);
    await page.getByLabel("Contraseña").fill(ADMIN.password());
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await expect(page.getByTestId("dashboard")).toBeVisible();
    await page.goto(`${url}/accounting/entries`);
    const scroller = page.getByTestId("entries-scroller");
    await expect(scroller).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("10000 resultados")).toBeVisible();
    const loaded = Date.now() - started;

    /** The body rows whose box is inside the scroller's viewport now. */
    const rowsInView = () =>
      scroller.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return Array.from(el.querySelectorAll("tbody tr")).filter((tr) => {
          const r = tr.getBoundingClientRect();
          return tr.querySelectorAll("td").length > 1 && r.bottom > box.top + 40 && r.top < box.bottom;
        }).length;
      });
    const height = await scroller.evaluate((el) => el.scrollHeight);
    expect(height).toBeGreaterThan(10_000 * 30);
    // 25 jumps of a twenty-fifth of the list each, then the very end: rows on screen after every one.
    for (let step = 1; step <= 25; step++) {
      await scroller.evaluate((el, y) => el.scrollTo(0, y), Math.round((height * step) / 25));
      await expect.poll(rowsInView, { timeout: 5_000 }).toBeGreaterThan(5);
    }
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(rowsInView).toBeGreaterThan(5);
    await expect(page.locator("tbody tr").last()).toContainText("Bench");
    await shot(page, "journal-10000-end");
    console.log(
      `[e2e figure] journal of 10,000 entries: signed in and listed in ${loaded} ms; scrolled in ${Date.now() - started - loaded} ms`,
    );
  });
});
