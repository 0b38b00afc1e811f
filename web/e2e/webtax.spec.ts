import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, shot, signIn } from "./helpers";

interface TaxReturn {
  id: string;
  model: string;
  year: number;
  period: string;
  estado: string;
  result: string | null;
  entry_id: string | null;
}

const euros = (value: string) =>
  new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR" }).format(Number(value));

async function demoReturns(): Promise<TaxReturn[]> {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const page = await api<{ data: TaxReturn[] }>(access_token, "GET", "/api/tax/returns?limit=100");
  return page.data;
}

async function openReturn(page: Page, r: TaxReturn) {
  await page.goto(`${base()}/tax/returns`);
  await expect(page.getByRole("heading", { name: "Declaraciones" })).toBeVisible();
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await page
    .locator("tbody tr")
    .filter({ hasText: `Modelo ${r.model}` })
    .filter({ hasText: r.period })
    .getByRole("link")
    .click();
  await expect(
    page.getByRole("heading", { name: `Modelo ${r.model} · ${r.year} ${r.period}` }),
  ).toBeVisible();
}

test("the demo's first-quarter 303: boxes with labels, result, invoices behind a box, AEAT file, lock, ledger check", async ({
  page,
}) => {
  const q1 = (await demoReturns()).find((r) => r.model === "303" && r.period === "1T");
  expect(q1?.estado).toBe("presentada");
  if (!q1?.result) throw new Error("the demo has no first-quarter 303");
  await signIn(page, ADMIN.email, ADMIN.password());
  await openReturn(page, q1);
  await expectAccessible(page);
  await shot(page, "tax-01-returns-303-1T");

  // The result the server computed, and the boxes grouped by section with their AEAT labels.
  await expect(page.getByTestId("tax-result")).toHaveText(euros(q1.result));
  await expect(page.getByText("Resultado a compensar")).toBeVisible();
  await expect(page.getByRole("heading", { name: "IVA devengado" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "IVA deducible" })).toBeVisible();
  await expect(page.getByText("Régimen general 21 %: base imponible")).toBeVisible();
  await expect(page.getByText("Total cuota devengada")).toBeVisible();
  await expect(page.getByText("Periodo bloqueado")).toBeVisible();
  // Confirmed and presented: nothing to edit, no recompute or confirm.
  await expect(page.getByRole("button", { name: "Confirmar" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Guardar casillas manuales" })).toHaveCount(0);

  // The invoices behind box 07.
  await page.getByRole("button", { name: "Facturas de la casilla 07" }).click();
  const drawer = page.getByRole("dialog", { name: "Facturas de la casilla 07" });
  await expect(drawer.locator("tbody tr").first()).toBeVisible();
  await expect(drawer.getByText("IVA21").first()).toBeVisible();
  await shot(page, "tax-02-box-07-invoices");
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);

  // The AEAT file, byte for byte what the API gives.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Fichero AEAT" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/_303_\d{4}1T\.txt$/);
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const expected = await fetch(`${base()}/api/tax/returns/${q1.id}/file`, {
    headers: { Authorization: `Bearer ${access_token}` },
  });
  const got = readFileSync(await download.path());
  expect(got.equals(Buffer.from(await expected.arrayBuffer()))).toBe(true);
  expect(got.subarray(0, 4).toString("latin1")).toBe("<T30");

  // The settlement entry opens in the journal.
  await page.getByRole("link", { name: "Ver el asiento en el diario" }).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/entries\\?entry=${q1.entry_id}`));
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByText("4700").first()).toBeVisible();
  await page.goBack();

  // The ledger check lists the hand-made 472/477 entries no invoice explains.
  await page.getByRole("tab", { name: "Comprobación con la contabilidad" }).click();
  await expect(page.getByText("La contabilidad no cuadra con las casillas")).toBeVisible();
  await expect(page.getByText("Sin factura").first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, "tax-03-check");
  await page.getByRole("tab", { name: "Historial" }).click();
  await expect(page.getByRole("cell", { name: "Liquidación contabilizada" })).toBeVisible();
});

test("the current quarter's draft 303: confirm locks the period, settle posts the entry, an admin reopens it", async ({
  page,
}) => {
  const draft = (await demoReturns()).find((r) => r.model === "303" && r.estado === "borrador");
  if (!draft) throw new Error("the demo has no draft 303");
  await signIn(page, ADMIN.email, ADMIN.password());
  await openReturn(page, draft);
  await expect(page.getByRole("textbox", { name: "Casilla 110" })).toBeVisible();
  await expect(page.getByText("Periodo bloqueado")).toHaveCount(0);
  await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByText("Borrador recalculado desde los libros")).toBeVisible();

  await page.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Periodo bloqueado")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Casilla 110" })).toHaveCount(0);
  await expect(page.getByText("Sin contabilizar")).toBeVisible();
  await page.getByRole("button", { name: "Contabilizar liquidación" }).click();
  await expect(page.getByText("Asiento de liquidación contabilizado")).toBeVisible();
  await expect(page.getByRole("button", { name: "Contabilizar liquidación" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Ver el asiento en el diario" })).toBeVisible();
  await shot(page, "tax-04-303-settled");

  // Reopening needs a reason; the period opens again and the history says who and why.
  await page.getByRole("button", { name: "Reabrir" }).click();
  const dialog = page.getByRole("dialog", { name: "Reabrir" });
  await dialog.getByLabel("Motivo").fill("ok");
  await expect(dialog.getByRole("button", { name: "Reabrir" })).toBeDisabled();
  await dialog.getByLabel("Motivo").fill("Falta una factura de proveedor");
  await dialog.getByRole("button", { name: "Reabrir" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Periodo bloqueado")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Confirmar" })).toBeVisible();
  await page.getByRole("tab", { name: "Historial" }).click();
  await expect(page.getByRole("cell", { name: "Falta una factura de proveedor" })).toBeVisible();
  await expectAccessible(page);
});

test("a draft 390: a manual box saved, confirmed, and its AEAT file downloaded", async ({ page }) => {
  const annual = (await demoReturns()).find((r) => r.model === "390");
  if (!annual) throw new Error("the demo has no 390");
  expect(annual.estado).toBe("borrador");
  await signIn(page, ADMIN.email, ADMIN.password());
  await openReturn(page, annual);
  // Earlier tests confirmed the current quarter's 303: the 390 is recomputed from the books first.
  await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByText("Borrador recalculado desde los libros")).toBeVisible();
  const box85 = page.getByRole("textbox", { name: "Casilla 85" });
  await box85.fill("12,3x");
  await expect(page.getByRole("button", { name: "Guardar casillas manuales" })).toBeDisabled();
  await box85.fill("100,50");
  await page.getByRole("button", { name: "Guardar casillas manuales" }).click();
  await expect(page.getByText("Guardado").first()).toBeVisible();
  await expect(box85).toHaveValue("100.50");
  await expectAccessible(page);
  await shot(page, "tax-04-390-draft");

  await page.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Confirmada", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Casilla 85" })).toHaveCount(0);
  // The "saved" and "confirmed" notifications sit over the header's buttons until they close, and a
  // notification under the pointer (left there by the click on "Confirmar") never closes by itself.
  await page.mouse.move(600, 700);
  await expect(page.getByRole("alert")).toHaveCount(0, { timeout: 20_000 });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Fichero AEAT" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/_390_\d{4}0A\.txt$/);
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString("latin1"),
  ).toBe("<T390");
  await shot(page, "tax-05-390-confirmed");
});

test("the VAT books by date with their csv export, and the box map", async ({ page }) => {
  const q1 = (await demoReturns()).find((r) => r.model === "303" && r.period === "1T");
  if (!q1) throw new Error("the demo has no first-quarter 303");
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/tax/vat-books`);
  await expect(page.getByRole("heading", { name: "Libros de IVA" })).toBeVisible();
  await page.getByLabel("Desde").fill(`${q1.year}-01-01`);
  await page.getByLabel("Hasta").fill(`${q1.year}-03-31`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.locator("tbody tr").first()).toContainText(`${q1.year} 1T`);
  await expect(page.locator("tbody tr").filter({ hasText: `${q1.year} 2T` })).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, "tax-06-vat-book-issued");

  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "CSV" }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe(`libro-expedidas-${q1.year}-01-01-${q1.year}-03-31.csv`);
  expect(readFileSync(await csv.path(), "utf8")).toContain(";");

  await page
    .getByRole("radiogroup", { name: "Libro" })
    .getByText("Facturas recibidas", { exact: true })
    .click();
  await expect(page.getByRole("columnheader", { name: "Recepción" })).toBeVisible();
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await shot(page, "tax-07-vat-book-received");

  // A bad range is refused before it is asked.
  await page.getByLabel("Desde").fill(`${q1.year}-04-01`);
  await expect(page.getByText("La fecha inicial es posterior a la final")).toBeVisible();

  await page.goto(`${base()}/tax/box-map`);
  await expect(page.getByRole("heading", { name: "Mapa de casillas" })).toBeVisible();
  await expect(page.locator("tbody tr").filter({ hasText: "IVA21" }).first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, "tax-08-box-map");

  // Exports point at box 60; move the ordinary sales row to 120, checked first by the form, then back.
  await page.getByPlaceholder("Código de impuesto").fill("EXP");
  const exp = page.locator("tbody tr").filter({ hasText: "Ventas" }).filter({ hasText: "Ordinaria" });
  await expect(exp).toHaveCount(1);
  await expect(exp).toContainText("60");
  await exp.getByRole("button", { name: "Editar EXP" }).click();
  const edit = page.getByRole("dialog", { name: "Mapa de casillas · EXP" });
  await edit.getByLabel("Casilla base").fill("6x");
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit.getByText("Un número de casilla (07, 168) o una clave de una letra")).toBeVisible();
  await edit.getByLabel("Casilla base").fill("999");
  await edit.getByRole("button", { name: "Guardar" }).click();
  // The server knows which boxes the 303 has, and says so under the field.
  await expect(edit.getByText(/must be a box of the 303/)).toBeVisible();
  await edit.getByLabel("Casilla base").fill("120");
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit).toHaveCount(0);
  await expect(exp.getByRole("cell", { name: "120", exact: true })).toBeVisible();
  await exp.getByRole("button", { name: "Editar EXP" }).click();
  await page.getByRole("dialog").getByLabel("Casilla base").fill("60");
  await page.getByRole("dialog").getByRole("button", { name: "Guardar" }).click();
  await expect(exp.getByRole("cell", { name: "60", exact: true })).toBeVisible();
});

test("a user who may only read taxes sees no tax or agent edit buttons and the 403 detail elsewhere", async ({
  browser,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const role = await api<{ id: string }>(access_token, "POST", "/api/v1/roles", {
    name: `fiscal-lectura-${Date.now()}`,
  });
  for (const [modulo, accion] of [
    ["tax", "leer"],
    ["agents", "leer"],
    ["companies", "leer"],
  ])
    await api(access_token, "POST", `/api/v1/roles/${role.id}/permissions`, { modulo, accion });
  const email = `fiscal${Date.now()}@example.com`;
  await api(access_token, "POST", "/api/v1/users", {
    email,
    password: "Fiscal-2026!",
    full_name: "Lectora Fiscal",
    role_ids: [role.id],
  });
  const draft = (await demoReturns()).find((r) => r.model === "303" && r.estado === "borrador");
  if (!draft) throw new Error("the demo has no draft 303");

  const page = await (
    await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "es-ES" })
  ).newPage();
  await signIn(page, email, "Fiscal-2026!");
  await openReturn(page, draft);
  await expect(page.getByText("Régimen general 21 %: base imponible")).toBeVisible();
  await expect(page.getByRole("button", { name: "Recalcular" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Confirmar" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Guardar casillas manuales" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Casilla 110" })).toHaveCount(0);
  await page.goto(`${base()}/tax/returns`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Nueva declaración" })).toHaveCount(0);
  await page.goto(`${base()}/tax/box-map`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^Editar/ })).toHaveCount(0);
  await page.goto(`${base()}/accounting/agents`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Nuevo agente" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Editar|Desactivar)/ })).toHaveCount(0);
  await shot(page, "tax-11-read-only-agents");
  await page.goto(`${base()}/accounting/families`);
  await expect(page.getByRole("alert")).toContainText("No tiene permiso para esta acción");
  await expect(page.getByRole("alert")).toContainText("products:leer");
});

test("create and edit a sales agent, create a product family (with the form's checks)", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  const code = `AG${Date.now().toString().slice(-6)}`;
  await page.goto(`${base()}/accounting/agents`);
  await expect(page.getByRole("heading", { name: "Agentes comerciales" })).toBeVisible();
  await page.getByRole("button", { name: "Nuevo agente" }).click();
  const dialog = page.getByRole("dialog", { name: "Nuevo agente" });
  await dialog.getByLabel("Código").fill(code);
  await dialog.getByLabel("Nombre").fill("Lucía Comercial Norte");
  await dialog.getByLabel("Comisión (%)").fill("101");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText("Un porcentaje entre 0 y 100")).toBeVisible();
  await dialog.getByLabel("Comisión (%)").fill("7,5");
  await dialog.getByLabel("NIF").fill("B12345670");
  await dialog.getByRole("button", { name: "Crear" }).click();
  // The server checks the NIF's control character and says which field is wrong.
  await expect(page.getByText(/tax_id/).first()).toBeVisible();
  await dialog.getByLabel("NIF").fill("");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator("tbody tr").filter({ hasText: code });
  await expect(row).toContainText("7,50 %");
  await expectAccessible(page);
  await shot(page, "tax-09-agents");

  await row.getByRole("button", { name: `Editar ${code}` }).click();
  const edit = page.getByRole("dialog", { name: "Editar agente" });
  await edit.getByLabel("Nombre").fill("Lucía Comercial Sur");
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.locator("tbody tr").filter({ hasText: code })).toContainText("Lucía Comercial Sur");

  const family = `F${Date.now().toString().slice(-6)}`;
  await page.goto(`${base()}/accounting/families`);
  await expect(page.getByRole("heading", { name: "Familias de artículos" })).toBeVisible();
  await page.getByRole("button", { name: "Nueva familia" }).click();
  const fam = page.getByRole("dialog", { name: "Nueva familia" });
  await fam.getByLabel("Código").fill(family);
  await fam.getByLabel("Nombre").fill("Áridos y hormigones");
  await fam.getByLabel("Cuenta de ventas").fill("605");
  await fam.getByRole("button", { name: "Crear" }).click();
  await expect(fam.getByText("Una cuenta del grupo 7 de 3 o 4 dígitos")).toBeVisible();
  await fam.getByLabel("Cuenta de ventas").fill("705");
  await fam.getByRole("button", { name: "Crear" }).click();
  await expect(fam).toHaveCount(0);
  const famRow = page.locator("tbody tr").filter({ hasText: family });
  await expect(famRow).toContainText("705");
  await expect(famRow).toContainText("La de la empresa");
  await expectAccessible(page);
  await shot(page, "tax-10-families");
});
