import { expect, type Page, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, shot, signIn } from "./helpers";

/** One concept (E1) placed in two chapters, and an item (E2) without measurement lines. */
function bc3(code: string) {
  return [
    "~V|SOFT|FIEBDC-3/2016|Prog||ANSI||",
    "~K|\\2\\2\\3\\2\\2\\2\\2\\EUR\\|0|",
    `~C|${code}##||Reforma de naves en Coslada||`,
    `~D|${code}##|C1#\\1\\1\\C2#\\1\\1\\|`,
    "~C|C1#||Nave 1||",
    "~C|C2#||Nave 2||",
    "~D|C1#|E1\\1\\2\\E2\\1\\10\\|",
    "~D|C2#|E1\\1\\3\\|",
    "~C|E1|m2|Solado de gres|10|",
    "~C|E2|m3|Hormigón HA-25 en zapatas|95.5|",
    "",
  ].join("\r\n");
}

/** A fresh borrador budget imported through the API; its id. */
async function importBudget(prefix: string): Promise<string> {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const code = `${prefix}${Date.now().toString(36).toUpperCase()}`;
  const form = new FormData();
  form.append("file", new Blob([bc3(code)], { type: "application/octet-stream" }), `${code}.bc3`);
  const res = await fetch(`${base()}/api/v1/budgets/import-bc3`, {
    method: "POST",
    headers: { Authorization: `Bearer ${access_token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`import: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function openBudget(page: Page, id: string) {
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/projects/budgets/${id}`);
  await expect(page.getByTestId("budget-pem")).toHaveText(/1005,00/);
}

test("measurement lines set an item's quantity and the budget total; a shared concept's decomposition prices every placement", async ({
  page,
}) => {
  await openBudget(page, await importBudget("MED"));

  // E2: no lines yet; two lines typed the Spanish way, each line's product and their sum shown live.
  await page.getByRole("button", { name: "Mediciones y descomposición E2" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByText("Sin líneas de medición")).toBeVisible();
  await expect(drawer.getByTestId("stated-quantity")).toHaveText(/10,000 m3/);
  await drawer.getByRole("button", { name: "Añadir línea" }).click();
  await drawer.getByLabel("Comentario 1").fill("Zapata Z1");
  await drawer.getByLabel("Uds. 1").fill("2");
  await drawer.getByLabel("Longitud 1").fill("3,5");
  await drawer.getByLabel("Anchura 1").fill("0,5");
  await expect(drawer.getByTestId("partial-0")).toHaveText("3,500");
  await drawer.getByRole("button", { name: "Añadir línea" }).click();
  await drawer.getByLabel("Comentario 2").fill("Zapata Z2");
  await drawer.getByLabel("Uds. 2").fill("1");
  await drawer.getByLabel("Longitud 2").fill("4x");
  // Not a number: the form says so and nothing is sent.
  await drawer.getByRole("button", { name: "Guardar mediciones" }).click();
  await expect(drawer.getByText("Número con 3 decimales como mucho")).toBeVisible();
  await drawer.getByLabel("Longitud 2").fill("4");
  await expect(drawer.getByTestId("lines-sum")).toHaveText("7,500");
  await drawer.getByRole("button", { name: "Guardar mediciones" }).click();

  // The server makes the lines' sum the quantity: 7,5 m3 x 95,50 = 716,25; PEM 20 + 716,25 + 30.
  await expect(drawer.getByTestId("stated-quantity")).toHaveText(/7,500 m3/);
  await expect(drawer.getByTestId("item-amount")).toHaveText(/716,25/);
  await expect(page.getByTestId("budget-pem")).toHaveText(/766,25/);
  await expectAccessible(page);
  await shot(page, "webprojects-01-measurements");
  await drawer.getByRole("button", { name: "Cerrar" }).click();
  await expect(page.getByLabel("Cantidad E2")).toHaveValue("7.500");

  // The quantity now comes from the lines: typing it in the tree is refused with the server's detail.
  await page.getByLabel("Cantidad E2").fill("9");
  await page.getByLabel("Cantidad E2").press("Enter");
  await expect(page.getByText("The quantity comes from the measurement lines")).toBeVisible();
  await expect(page.getByLabel("Cantidad E2")).toHaveValue("7.500");

  // E1 is placed in both chapters: its detail says so, and its decomposition prices both.
  await page.getByRole("button", { name: "Mediciones y descomposición E1" }).first().click();
  await expect(drawer.getByText("Este concepto se usa en 2 sitios")).toBeVisible();
  await drawer.getByRole("tab", { name: /Descomposición/ }).click();
  const component = async (i: number, type: string, code: string, y: string, price: string) => {
    await drawer.getByRole("button", { name: "Añadir componente" }).click();
    await drawer.getByLabel(`Tipo ${i}`, { exact: true }).selectOption({ label: type });
    await drawer.getByLabel(`Código ${i}`, { exact: true }).fill(code);
    await drawer.getByLabel(`Resumen ${i}`, { exact: true }).fill(`${code} e2e`);
    await drawer.getByLabel(`Rendimiento ${i}`, { exact: true }).fill(y);
    await drawer.getByLabel(`Precio ${i}`, { exact: true }).fill(price);
  };
  await component(1, "Mano de obra", "MO001", "0,5", "20");
  await component(2, "Material", "MT001", "2", "3,25");
  // 3 % on everything before it: 0,03 x 16,50.
  await component(3, "Otros", "%", "0,03", "3");
  await expect(drawer.getByTestId("cost-2")).toHaveText("0,4950");
  await expect(drawer.getByTestId("direct-cost")).toHaveText("16,9950");
  await drawer.getByRole("button", { name: "Guardar descomposición" }).click();
  await expect(page.getByText("Precio cambiado en los 2 sitios que usan el concepto")).toBeVisible();
  await expect(drawer.getByTestId("stored-price")).toHaveText("16,9950");
  // 2 x 16,995 = 33,99 here and 3 x 16,995 = 50,99 in Nave 2: PEM 33,99 + 716,25 + 50,99.
  await expect(drawer.getByTestId("item-amount")).toHaveText(/33,99/);
  await expect(page.getByTestId("budget-pem")).toHaveText(/801,23/);
  await expectAccessible(page);
  await shot(page, "webprojects-02-decomposition");
  await drawer.getByRole("button", { name: "Cerrar" }).click();
  await expect(page.getByRole("row", { name: /Nave 2/ })).toBeVisible();
  await expect(page.getByLabel("Precio E1").last()).toHaveValue("16.9950");
});

test("an activity is added over a chapter and its progress set; dates out of order are refused", async ({
  page,
}) => {
  await openBudget(page, await importBudget("ACT"));
  await page.getByRole("tab", { name: "Actividades" }).click();
  await expect(page.getByText("No hay registros")).toBeVisible();

  await page.getByRole("button", { name: "Nueva actividad" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Código").fill("A1");
  await dialog.getByLabel("Nombre").fill("Solado de la nave 2");
  await dialog.getByLabel("Inicio previsto").fill("2026-03-01");
  await dialog.getByLabel("Fin previsto").fill("2026-02-01");
  await dialog.getByRole("combobox", { name: "Partidas y capítulos que cubre" }).click();
  await page.getByRole("option", { name: /C2 Nave 2/ }).click();
  await dialog.getByLabel("Nombre").click(); // closes the list of items
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText("El fin no puede ser anterior al inicio")).toBeVisible();
  await dialog.getByLabel("Fin previsto").fill("2026-04-30");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toHaveCount(0);

  // Nave 2 holds 3 m2 x 10,00: planned value 30,00, nothing earned yet.
  const row = page.getByRole("row", { name: /A1/ });
  await expect(row.getByText("Solado de la nave 2")).toBeVisible();
  await expect(row.getByRole("progressbar", { name: "Avance A1" })).toHaveAttribute("aria-valuenow", "0");
  await expect(row.getByText("30,00 €")).toBeVisible();
  await expect(row.getByText("Pendiente")).toBeVisible();

  await row.getByRole("button", { name: "Acciones A1" }).click();
  await page.getByRole("menuitem", { name: "Editar" }).click();
  await dialog.getByLabel("Avance %").fill("101");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog.getByText("Debe estar entre 0 y 100")).toBeVisible();
  await dialog.getByLabel("Avance %").fill("40");
  await dialog.getByLabel("Responsable").click();
  await page.getByRole("option", { name: "Administrator" }).click();
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByRole("cell", { name: "Administrator" })).toBeVisible();
  await expect(row.getByRole("progressbar", { name: "Avance A1" })).toHaveAttribute("aria-valuenow", "40");
  await expect(row.getByText("40 %")).toBeVisible();
  await expect(row.getByText("12,00 €")).toBeVisible();

  await row.getByRole("button", { name: "Acciones A1" }).click();
  await page.getByRole("menuitem", { name: "Iniciar" }).click();
  await expect(row.getByText("En curso")).toBeVisible();
  await expect(page.getByText("Avance ponderado")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "webprojects-03-activities");

  await row.getByRole("button", { name: "Acciones A1" }).click();
  await page.getByRole("menuitem", { name: "Eliminar" }).click();
  await expect(page.getByText("No hay registros")).toBeVisible();
});

test("once approved, an item's lines and components are shown but not editable", async ({ page }) => {
  const id = await importBudget("RO");
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const item = await api<{ data: { id: string; code: string }[] }>(
    access_token,
    "GET",
    `/api/v1/budget-items?budget_id=${id}&kind=item&search=E2`,
  );
  await api(access_token, "PUT", `/api/v1/budget-items/${item.data[0].id}`, {
    measurements: [{ label: "Zapata Z1", units: "2", length: "2.5" }],
  });
  await api(access_token, "PUT", `/api/v1/budgets/${id}/estado`, { estado: "aprobado" });
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/projects/budgets/${id}`);
  await page.getByRole("button", { name: "Mediciones y descomposición E2" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByRole("cell", { name: "Zapata Z1" })).toBeVisible();
  await expect(drawer.getByTestId("partial-0")).toHaveText("5,000");
  await expect(drawer.getByTestId("stated-quantity")).toHaveText(/5,000 m3/);
  await expect(drawer.getByText("Solo se editan las partidas en borrador")).toBeVisible();
  await expect(drawer.getByRole("textbox")).toHaveCount(0);
  await expect(drawer.getByRole("button", { name: "Añadir línea" })).toHaveCount(0);
  await drawer.getByRole("tab", { name: /Descomposición/ }).click();
  await expect(drawer.getByText("Sin descomposición")).toBeVisible();
  await expect(drawer.getByRole("button", { name: "Añadir componente" })).toHaveCount(0);
  await expectAccessible(page);
});
