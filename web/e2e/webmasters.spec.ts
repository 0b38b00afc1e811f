import { deflateSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, shot, signIn } from "./helpers";

const stamp = () => Date.now().toString(36).toUpperCase();

/** CRC-32 (IEEE) of a PNG chunk's type and data. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of `width` x `height` pixels (an indigo-to-red gradient). */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push(Math.round((255 * x) / width), 40, 160);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function chooseFile(
  page: Page,
  button: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("dialog").getByRole("button", { name: button }).click();
  await (await chooser).setFiles(file);
}

test("a contact is refused with the NIF's reason, then created and edited; the server's reason shows under its field", async ({
  page,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/accounting/contacts`);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  const name = `ZZ E2E Reformas ${stamp()}`;

  await page.getByRole("button", { name: "Nuevo cliente o proveedor" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nombre").fill(name);
  await dialog.getByLabel("NIF").fill("B12345675");
  await dialog.getByRole("button", { name: "Crear" }).click();
  // Refused in the browser: the CIF's control digit is 4; nothing was sent.
  await expect(dialog.getByText("NIF no válido: wrong control character, expected 4")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "webmasters-01-contact-invalid");

  // A French contact's VAT number is the server's to check: its 400 lands under the field.
  await dialog.getByLabel("País").fill("FR");
  await dialog.getByLabel("NIF").fill("FR123");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText(/VAT number|FR/).first()).toBeVisible();
  await expect(dialog.locator(".mantine-InputWrapper-error")).toHaveCount(1);

  await dialog.getByLabel("País").fill("ES");
  await dialog.getByLabel("NIF").fill("b-1234567-4");
  await dialog.getByLabel("Correo").fill("obras@reformas.example");
  await dialog.getByLabel("Días fijos de pago").fill("20, 5");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator("tbody tr", { hasText: name });
  await expect(row).toContainText("B12345674");
  await expect(row).toContainText("Cliente");

  const code = (await row.locator("td").first().innerText()).trim();
  await page.getByRole("button", { name: `Editar ${code}` }).click();
  await expect(dialog.getByLabel("Días fijos de pago")).toHaveValue("5, 20");
  await dialog.getByLabel("Teléfono").fill("941 000 111");
  await dialog.getByLabel("Tipo").click();
  await page.getByRole("option", { name: "Cliente y proveedor" }).click();
  await dialog.getByLabel("Agente comercial").click();
  await page.getByRole("option", { name: /AG01/ }).click();
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText("941 000 111");
  await expect(row).toContainText("Cliente y proveedor");
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const stored = await api<{ data: { code: string; agent_id: string | null }[] }>(
    access_token,
    "GET",
    `/api/clients?search=${encodeURIComponent(name)}`,
  );
  expect(stored.data.find((c) => c.code === code)?.agent_id).toMatch(/^[0-9a-f-]{36}$/);
  await expectAccessible(page);
  await shot(page, "webmasters-02-contacts");
});

test("a product is created with its family, VAT rate and prices typed the Spanish way, then edited", async ({
  page,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const company = (await api<{ data: { id: string }[] }>(access_token, "GET", "/api/companies?limit=1"))
    .data[0]!;
  const family = `ZZF${stamp()}`;
  await api(access_token, "POST", "/api/products/families", {
    company_id: company.id,
    code: family,
    name: "Tabiquería E2E",
  });

  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/accounting/products`);
  await expect(page.getByRole("heading", { name: "Artículos" })).toBeVisible();
  const reference = `ZZ-${stamp()}`;
  await page.getByRole("button", { name: "Nuevo artículo" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Código").fill(reference);
  await dialog.getByLabel("Descripción").fill("Tabique de ladrillo hueco doble");
  await dialog.getByLabel("Precio (€)").fill("1.234,567");
  await dialog.getByLabel("Coste (€)").fill("980,1");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText("Un importe no negativo con 2 decimales como mucho")).toBeVisible();
  await dialog.getByLabel("Precio (€)").fill("1.234,50");
  await dialog.getByLabel("Familia").click();
  await page.getByRole("option", { name: new RegExp(family) }).click();
  await dialog.getByLabel("IVA").click();
  await page.getByRole("option", { name: "10 %" }).click();
  await expectAccessible(page);
  await shot(page, "webmasters-03-product-dialog");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.locator("tbody tr", { hasText: reference });
  await expect(row).toContainText(family);
  await expect(row).toContainText("10 %");
  await expect(row).toContainText(/1\.?234,50/);
  await expect(row).toContainText(/980,10/);
  // Stored exactly as typed: a string, not a float.
  const stored = await api<{ data: { reference: string; sale_price: string; cost_price: string }[] }>(
    access_token,
    "GET",
    `/api/products?company_id=${company.id}&search=${reference}`,
  );
  expect(stored.data[0]).toMatchObject({ sale_price: "1234.50", cost_price: "980.10" });

  await page.getByRole("button", { name: `Editar ${reference}` }).click();
  await expect(dialog.getByLabel("Precio (€)")).toHaveValue("1234,50");
  await dialog.getByLabel("Precio (€)").fill("99,9");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText(/99,90/);
  await expectAccessible(page);
  await shot(page, "webmasters-04-products");
});

/** Whatever happened in a test, no E2E company is left active (other specs rely on the tenant's only one). */
test.afterEach(async () => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const companies = await api<{ data: { id: string; name: string }[] }>(
    access_token,
    "GET",
    "/api/companies?limit=200",
  );
  for (const c of companies.data.filter((c) => c.name.startsWith("ZZ E2E ")))
    await api(access_token, "PUT", `/api/companies/${c.id}`, { is_active: false });
});

test("a company is created, and its letterhead logo uploaded, previewed, refused when not an image, and removed", async ({
  page,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/accounting/companies`);
  await expect(page.getByRole("heading", { name: "Empresas" })).toBeVisible();
  await expect(page.locator("tbody tr").first()).toBeVisible();
  // Named to sort last; the switcher's default is the oldest company, which stays the demo's.
  const name = `ZZ E2E Obras ${stamp()}`;

  await page.getByRole("button", { name: "Nueva empresa" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nombre").fill(name);
  await dialog.getByLabel("NIF").fill("12345678A");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText("NIF no válido: wrong control letter, expected Z")).toBeVisible();
  await dialog.getByLabel("NIF").fill("12345678Z");
  await dialog.getByLabel("Razón social").fill(`${name}, S.L.`);
  await dialog.getByLabel("Población").fill("Logroño");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator("tbody tr", { hasText: name });
  await expect(row).toContainText("12345678Z");
  await expect(row).toContainText("Logroño");

  await page.getByRole("button", { name: `Editar ${name}` }).click();
  await expect(dialog.getByText("Sin logotipo")).toBeVisible();

  await chooseFile(page, "Subir logotipo", {
    name: "logo.png",
    mimeType: "image/png",
    buffer: Buffer.from("not an image at all, only text"),
  });
  await expect(dialog.getByRole("alert")).toContainText(/PNG|JPEG/);
  await chooseFile(page, "Subir logotipo", {
    name: "huge.png",
    mimeType: "image/png",
    buffer: Buffer.concat([png(2, 2), Buffer.alloc(1_100_000)]),
  });
  await expect(dialog.getByRole("alert")).toContainText(/1 MB|1048576|large/i);
  await expectAccessible(page);
  await shot(page, "webmasters-05-logo-refused");

  await chooseFile(page, "Subir logotipo", { name: "logo.png", mimeType: "image/png", buffer: png(48, 16) });
  const logo = dialog.getByTestId("company-logo");
  await expect(logo).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  expect(await logo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
    48, 16,
  ]);
  expect(await logo.getAttribute("src")).toMatch(/^blob:/);
  await expectAccessible(page);
  await shot(page, "webmasters-06-company-logo");

  await dialog.getByRole("button", { name: "Quitar logotipo" }).click();
  await expect(dialog.getByText("Sin logotipo")).toBeVisible();
  await expect(logo).toHaveCount(0);
  await dialog.getByLabel("Población").fill("Haro");
  // Deactivated again: with one active company the API still defaults company_id for other specs.
  await dialog.getByLabel("Activo").uncheck();
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText("Haro");
  await expect(row).toContainText("Inactivo");
  // The demo company stays the default for everyone: the new one was created last.
  await expect(page.getByRole("banner")).not.toContainText(name);
});

test("the demo budget's contract data and a certification's issue data are edited; the PDF still downloads", async ({
  page,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const budgets = await api<{ data: { id: string; code: string }[] }>(
    access_token,
    "GET",
    "/api/v1/budgets?search=DEMO-EDIFICIO",
  );
  const budget = budgets.data.find((b) => b.code === "DEMO-EDIFICIO")!;
  const file = `EXP-${stamp()}`;

  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/projects/budgets/${budget.id}`);
  await page.getByRole("tab", { name: "Datos del contrato" }).click();
  await page.getByLabel("Importe de adjudicación").fill("-5");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Un importe no negativo con 2 decimales como mucho")).toBeVisible();
  await page.getByLabel("Importe de adjudicación").fill("1.250.000,00");
  await page.getByLabel("Nº de expediente").fill(file);
  await page.getByLabel("Emplazamiento de la obra").fill("C/ Portales 12, Logroño");
  await page.getByLabel("Dirección facultativa").fill("Ana Ruiz, arquitecta");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Guardado: Datos del contrato")).toBeVisible();
  const saved = await api<{ file_number: string; contract_amount: string; site_address: string }>(
    access_token,
    "GET",
    `/api/v1/budgets/${budget.id}`,
  );
  expect(saved).toMatchObject({
    file_number: file,
    contract_amount: "1250000.00",
    site_address: "C/ Portales 12, Logroño",
  });
  await page.reload();
  await page.getByRole("tab", { name: "Datos del contrato" }).click();
  await expect(page.getByLabel("Nº de expediente")).toHaveValue(file);
  await expect(page.getByLabel("Importe de adjudicación")).toHaveValue("1250000,00");
  await expectAccessible(page);
  await shot(page, "webmasters-07-contract");

  // The emitida certification: where and when it is issued can change, its retention no longer.
  const certs = await api<{ data: { id: string; estado: string; period_start: string }[] }>(
    access_token,
    "GET",
    `/api/v1/certifications?budget_id=${budget.id}`,
  );
  const cert = certs.data.find((c) => c.estado === "emitida")!;
  await page.goto(`${base()}/projects/certifications/${cert.id}`);
  await expect(page.getByLabel("Lugar de emisión")).toHaveValue("Logroño");
  await expect(page.getByLabel("Retención de garantía (%)")).toHaveAttribute("readonly", "");
  await page.getByLabel("Fecha de emisión").fill("2020-01-01");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("No puede ser anterior al inicio del periodo")).toBeVisible();
  await page.getByLabel("Fecha de emisión").fill(cert.period_start);
  await page.getByLabel("Lugar de emisión").fill("Logroño (La Rioja)");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Guardado: Datos de emisión")).toBeVisible();
  const after = await api<{ issue_place: string; issue_date: string }>(
    access_token,
    "GET",
    `/api/v1/certifications/${cert.id}`,
  );
  expect(after).toMatchObject({ issue_place: "Logroño (La Rioja)", issue_date: cert.period_start });
  await expectAccessible(page);
  await shot(page, "webmasters-08-certification-issue");

  // The notifications sit over the header's buttons: let them go first.
  await expect(page.getByText("Guardado: Datos de emisión")).toHaveCount(0);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "PDF" }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
});

test("a user who may only read contacts, products and companies sees no create, edit or deactivate button", async ({
  browser,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const role = await api<{ id: string }>(access_token, "POST", "/api/v1/roles", {
    name: `maestros-lectura-${Date.now()}`,
  });
  for (const modulo of ["clients", "products", "companies"])
    await api(access_token, "POST", `/api/v1/roles/${role.id}/permissions`, { modulo, accion: "leer" });
  const email = `maestros${Date.now()}@example.com`;
  await api(access_token, "POST", "/api/v1/users", {
    email,
    password: "Maestros-2026!",
    full_name: "Lectora Maestros",
    role_ids: [role.id],
  });
  const page = await (
    await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "es-ES" })
  ).newPage();
  await signIn(page, email, "Maestros-2026!");
  for (const [path, create] of [
    ["/accounting/contacts", "Nuevo cliente o proveedor"],
    ["/accounting/products", "Nuevo artículo"],
    ["/accounting/companies", "Nueva empresa"],
  ]) {
    await page.goto(`${base()}${path}`);
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.getByRole("button", { name: create })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Editar / })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Desactivar / })).toHaveCount(0);
  }
});

test("the navigation's active link stays readable under the pointer (axe's contrast, hovered)", async ({
  page,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password());
  const nav = page.getByRole("navigation");
  const home = nav.getByRole("link", { name: "Inicio" });
  await home.hover();
  await expectAccessible(page);

  await nav.getByText("Contabilidad", { exact: true }).click();
  const contacts = nav.getByRole("link", { name: "Clientes y proveedores" });
  await contacts.click();
  await expect(page.getByRole("heading", { name: "Clientes y proveedores" })).toBeVisible();
  await expect(contacts).toHaveAttribute("data-active", "true");
  await contacts.hover();
  await expectAccessible(page);
});

test("a contact and a user are deactivated from their row; the signed-in user has no Deactivate of their own", async ({
  page,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const companies = await api<{ data: { id: string }[] }>(access_token, "GET", "/api/companies?limit=1");
  const contact = await api<{ code: string }>(access_token, "POST", "/api/clients", {
    company_id: companies.data[0]!.id,
    contact_type: "customer",
    name: `ZZ E2E Baja ${stamp()}`,
  });
  const email = `baja${Date.now()}@example.com`;
  await api(access_token, "POST", "/api/v1/users", {
    email,
    password: "Baja-2026-Usuario!",
    full_name: "Usuaria de baja",
    role_ids: [],
  });
  await signIn(page, ADMIN.email, ADMIN.password());

  await page.goto(`${base()}/accounting/contacts`);
  await page.getByLabel("Buscar").fill(contact.code);
  const contactRow = page.getByRole("row").filter({ hasText: contact.code });
  await expect(contactRow).toHaveCount(1);
  await contactRow.getByRole("button", { name: `Desactivar ${contact.code}` }).click();
  await expect(page.getByText("Desactivado", { exact: true })).toBeVisible();
  await expect(contactRow.getByText("Inactivo")).toBeVisible();
  await expect(contactRow.getByRole("button", { name: /^Desactivar / })).toHaveCount(0);
  await expect(contactRow.getByRole("button", { name: `Editar ${contact.code}` })).toBeVisible();

  await page.goto(`${base()}/admin/users`);
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(1);
  await expect(page.getByRole("button", { name: `Desactivar ${ADMIN.email}` })).toHaveCount(0);
  const userRow = page.getByRole("row").filter({ hasText: email });
  await userRow.getByRole("button", { name: `Desactivar ${email}` }).click();
  await expect(userRow.getByText("Inactivo")).toBeVisible();
  await expect(userRow.getByRole("button", { name: /^Desactivar / })).toHaveCount(0);
  await expectAccessible(page);
});
