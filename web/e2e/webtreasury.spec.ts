import { createHash, randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, shot, signIn } from "./helpers";

interface Due {
  id: string;
  code: string;
  amount: string;
  paid_amount: string;
  open_amount: string;
  status: string;
  payments?: { id: string; undone: boolean }[];
}
interface Page_<T> {
  data: T[];
  total: number;
}

const token = async () => (await apiLogin(ADMIN.email, ADMIN.password())).access_token;
const cents = (s: string) => Math.round(Number(s) * 100);
/** An API amount ("1234.50") as a Spanish user types it ("1234,50"). */
const typed = (s: string) => s.replace(".", ",");

/** A demo receipt nothing is paid of yet, not due yet (no other spec pays or reconciles those). */
async function unpaidReceipt(): Promise<Due> {
  const list = await api<Page_<Due>>(
    await token(),
    "GET",
    "/api/treasury/customer-receipts?status=pendiente&limit=200",
  );
  const due = list.data.find((d) => cents(d.paid_amount) === 0 && cents(d.open_amount) >= 1000);
  if (!due) throw new Error("the demo has no unpaid receipt to pay");
  return due;
}

test("a receipt collected in part, an overpayment refused with the server's detail, the payment undone", async ({
  page,
}) => {
  const due = await unpaidReceipt();
  const half = (cents(due.open_amount) / 2 / 100).toFixed(2);
  const over = ((cents(due.open_amount) + 10_000) / 100).toFixed(2);

  await signIn(page, ADMIN.email, ADMIN.password());
  await page.getByRole("navigation").getByText("Tesorería", { exact: true }).click();
  await page.getByRole("link", { name: "Cobros", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Cobros" })).toBeVisible();
  await expect(page.getByTestId("dues-table")).toBeVisible();
  await expect(page.getByText(/\d+ de \d+ vencimientos/)).toBeVisible();
  await expectAccessible(page);
  await shot(page, "treasury-receipts");

  await page.getByLabel("Buscar").fill(due.code);
  const row = page.getByRole("row").filter({ hasText: due.code });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Cobrar ${due.code}` }).click();
  const dialog = page.getByRole("dialog", { name: `Cobrar ${due.code}` });
  await expect(dialog.getByLabel("Importe")).toHaveValue(due.open_amount);
  await expect(dialog.getByRole("combobox", { name: "Cuenta bancaria" })).not.toHaveValue("");
  await expectAccessible(page);
  await shot(page, "treasury-pay-dialog");

  // More than is open: the server's 409 detail, in the dialog; nothing recorded.
  await dialog.getByLabel("Importe").fill(typed(over));
  await dialog.getByRole("button", { name: "Cobrar" }).click();
  await expect(dialog.getByRole("alert")).toContainText(`${due.code} has ${due.open_amount} open`);
  // A typing mistake is named on its field before anything is sent.
  await dialog.getByLabel("Importe").fill("12,345");
  await dialog.getByRole("button", { name: "Cobrar" }).click();
  await expect(dialog.getByText("Importe mayor que cero, con dos decimales como mucho")).toBeVisible();

  await dialog.getByLabel("Importe").fill(typed(half));
  await dialog.getByLabel("Comisiones").fill("1,20");
  await dialog.getByRole("button", { name: "Cobrar" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Parcial")).toBeVisible();
  const paid = await api<Due>(await token(), "GET", `/api/treasury/customer-receipts/${due.id}`);
  expect(paid.paid_amount).toBe(half);
  expect(paid.status).toBe("parcial");

  // The instalment's drawer lists the payment; undoing it gives the amount back.
  await row.getByRole("button", { name: due.code, exact: true }).click();
  const detail = page.getByTestId("due-detail");
  await expect(detail.getByTestId("due-payments")).toBeVisible();
  await expect(detail.getByTestId("due-instalments")).toContainText(due.code);
  await expectAccessible(page);
  await shot(page, "treasury-receipt-detail");
  await detail.getByRole("button", { name: "Deshacer" }).click();
  await page.getByRole("dialog", { name: "Deshacer" }).getByRole("button", { name: "Deshacer" }).click();
  await expect(detail.getByText("Deshecho")).toBeVisible();
  await expect(detail.getByTestId("due-paid")).toHaveText(/^0,00\s€$/);
  const undone = await api<Due>(await token(), "GET", `/api/treasury/customer-receipts/${due.id}`);
  expect(undone.paid_amount).toBe("0.00");
  expect(undone.open_amount).toBe(due.open_amount);
  expect(undone.payments?.map((p) => p.undone)).toEqual([true]);
});

test("supplier payments filtered by state and due date", async ({ page }) => {
  const overdue = await api<Page_<Due>>(
    await token(),
    "GET",
    "/api/treasury/supplier-payments?status=vencido&limit=1",
  );
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/treasury/payments`);
  await expect(page.getByRole("heading", { name: "Pagos a proveedores" })).toBeVisible();
  await page.getByRole("combobox", { name: "Estado" }).click();
  await page.getByRole("option", { name: "Vencido" }).click();
  if (overdue.total > 0) {
    await expect(page.getByText(`de ${overdue.total} vencimientos`)).toBeVisible();
    await expect(page.getByTestId("dues-table").getByText("Vencido").first()).toBeVisible();
    await expect(
      page.getByTestId("dues-table").locator("tbody").getByText("Pendiente", { exact: true }),
    ).toHaveCount(0);
  } else {
    await expect(page.getByText("No hay registros")).toBeVisible();
  }
  // Nothing falls due in the year 2000: the empty state.
  await page.getByLabel("Vence hasta").fill("2000-01-01");
  await expect(page.getByText("No hay registros")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "treasury-payments");
});

test("aging: receivables and payables per contact by days past due, totals as the API's", async ({
  page,
}) => {
  const aging = await api<{
    receivables: { contacts: { contact_name: string }[]; totals: { total: string } };
    payables: { contacts: unknown[]; totals: { total: string } };
  }>(await token(), "GET", "/api/treasury/aging");
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/treasury/aging`);
  await expect(page.getByRole("heading", { name: "Antigüedad de saldos" })).toBeVisible();
  const receivables = page.getByTestId("aging-receivables");
  await expect(receivables).toBeVisible();
  for (const header of ["No vencido", "0-30 días", "31-60 días", "61-90 días", "Más de 90"])
    await expect(receivables.getByRole("columnheader", { name: header })).toBeVisible();
  await expect(receivables.locator("tbody tr")).toHaveCount(aging.receivables.contacts.length + 1);
  await expect(receivables.getByText(aging.receivables.contacts[0].contact_name)).toBeVisible();
  const euros = (s: string) =>
    new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR" }).format(Number(s));
  await expect(receivables.locator("tbody tr").last()).toContainText(euros(aging.receivables.totals.total));
  await expect(page.getByTestId("aging-payables").locator("tbody tr").last()).toContainText(
    euros(aging.payables.totals.total),
  );
  await expectAccessible(page);
  await shot(page, "treasury-aging");
  // A date before any invoice: nothing open.
  await page.getByLabel("A fecha").fill("2000-01-01");
  await expect(page.getByTestId("aging-receivables")).toHaveCount(0);
});

test("a forecast line created, edited and deleted", async ({ page }) => {
  const name = `Leasing maquinaria E2E ${Date.now()}`;
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.goto(`${base()}/treasury/budgets`);
  await expect(page.getByRole("heading", { name: "Presupuesto de tesorería" })).toBeVisible();
  await expect(page.getByText("Nóminas de la plantilla")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "treasury-budget");

  await page.getByRole("button", { name: "Nueva previsión" }).click();
  const dialog = page.getByRole("dialog", { name: "Nueva previsión" });
  await dialog.getByLabel("Categoría").fill("financiacion");
  await dialog.getByLabel("Descripción").fill(name);
  await dialog.getByLabel("Importe").fill("1.234,567");
  await dialog.getByRole("textbox", { name: "Fecha", exact: true }).fill("2027-01-15");
  await dialog.getByRole("combobox", { name: "Repetición" }).click();
  await page.getByRole("option", { name: "Mensual" }).click();
  await dialog.getByLabel("Hasta").fill("2026-12-31");
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog.getByText("Importe distinto de cero")).toBeVisible();
  await expect(dialog.getByText("No puede ser anterior a la primera fecha")).toBeVisible();
  await dialog.getByLabel("Importe").fill("-1.234,56");
  await dialog.getByLabel("Hasta").fill("2027-12-31");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Crear" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("-1234,56");
  await expect(row).toContainText("Mensual");

  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const stored = await api<{ data: { id: string; amount: string; until: string | null }[] }>(
    access_token,
    "GET",
    `/api/treasury/budgets?search=${encodeURIComponent(name)}`,
  );
  expect(stored.data.map((l) => [l.amount, l.until])).toEqual([["-1234.56", "2027-12-31"]]);

  await row.getByRole("button", { name: `Editar financiacion ${name}` }).click();
  const edit = page.getByRole("dialog", { name: "Editar previsión" });
  await expect(edit.getByLabel("Importe")).toHaveValue("-1234.56");
  await edit.getByLabel("Importe").fill("-1500");
  await edit.getByRole("combobox", { name: "Repetición" }).click();
  await page.getByRole("option", { name: "Una vez" }).click();
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("-1500,00");
  await expect(row).toContainText("Una vez");

  await row.getByRole("button", { name: `Eliminar financiacion ${name}` }).click();
  await page
    .getByRole("dialog", { name: "Eliminar previsión" })
    .getByRole("button", { name: "Eliminar" })
    .click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  const gone = await api<{ total: number }>(
    access_token,
    "GET",
    `/api/treasury/budgets?search=${encodeURIComponent(name)}`,
  );
  expect(gone.total).toBe(0);
});

/** Registers a client (RFC 7591) and walks the sign-in and consent pages in the browser: one grant. */
async function connectAssistant(page: Page, clientName: string) {
  const redirectUri = "http://127.0.0.1:53682/callback";
  const reg = await fetch(`${base()}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    }),
  });
  if (reg.status !== 201) return false;
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${base()}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    client_id,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: "mcp:invoices mcp:treasury",
    resource: `${base()}/api/mcp`,
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }))
    url.searchParams.set(k, v);
  // The assistant's callback is not running: answer it here.
  await page.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: "ok" }));
  await page.goto(url.toString());
  await page.getByLabel(/Correo electrónico|Email/).fill(ADMIN.email);
  await page.getByLabel(/Contraseña|Password/).fill(ADMIN.password());
  await page.getByRole("button", { name: /Iniciar sesión|Sign in/ }).click();
  await page.getByRole("button", { name: /Permitir|Allow/ }).click();
  await page.waitForURL(`${redirectUri}**`);
  return true;
}

test("connected assistants: the empty list, then an assistant connected by OAuth and revoked", async ({
  page,
}) => {
  const before = await api<{ total: number }>(await token(), "GET", "/api/oauth/grants");
  await signIn(page, ADMIN.email, ADMIN.password());
  await page.getByRole("button", { name: "Menú de usuario" }).click();
  await page.getByRole("menuitem", { name: "Asistentes conectados" }).click();
  await expect(page.getByRole("heading", { name: "Asistentes conectados" })).toBeVisible();
  if (before.total === 0) await expect(page.getByText("No hay registros")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "assistants-empty");

  const clientName = `Asistente E2E ${Date.now()}`;
  const connected = await connectAssistant(page, clientName);
  // global-setup starts the server with OAUTH_DYNAMIC_REGISTRATION=true: a refused registration is a failure.
  expect(connected, "the assistant's dynamic client registration was refused").toBe(true);
  await page.goto(`${base()}/account/assistants`);
  const row = page.getByRole("row").filter({ hasText: clientName });
  await expect(row).toContainText("127.0.0.1");
  await expect(row).toContainText("mcp:invoices");
  await expectAccessible(page);
  await shot(page, "assistants-connected");
  await row.getByRole("button", { name: `Revocar acceso ${clientName}` }).click();
  const confirm = page.getByRole("dialog", { name: "Revocar acceso" });
  await expect(confirm).toContainText(clientName);
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Revocar acceso" }).click();
  await expect(page.getByRole("row").filter({ hasText: clientName })).toHaveCount(0);
  const after = await api<{ data: { client_name: string }[] }>(await token(), "GET", "/api/oauth/grants");
  expect(after.data.map((g) => g.client_name)).not.toContain(clientName);
});

test("a pending supplier invoice approved from its editor, another rejected with a reason", async ({
  page,
}) => {
  const access = await token();
  const supplier = (
    await api<{ data: { id: string }[] }>(access, "GET", "/api/clients?contact_type=supplier&limit=1")
  ).data[0];
  const create = (n: string) =>
    api<{ id: string; estado: string }>(access, "POST", "/api/purchases/invoices", {
      supplier_id: supplier.id,
      supplier_number: `E2E-TES-${n}-${Date.now()}`,
      date: new Date().toISOString().slice(0, 10),
      lines: [{ description: "Alquiler de grúa", quantity: "1", unit_price: "300", tax_code: "IVA21" }],
    });
  const [toApprove, toReject] = [await create("A"), await create("R")];
  await signIn(page, ADMIN.email, ADMIN.password());

  await page.goto(`${base()}/purchases/invoices/${toApprove.id}`);
  await expect(page.getByTestId("invoice-state")).toHaveText("pendiente");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Aprobar" }).click();
  await expect(page.getByTestId("invoice-state")).toHaveText("aprobada");
  await expect(page.getByRole("button", { name: "Aprobar" })).toHaveCount(0);
  expect(
    (await api<{ estado: string }>(access, "GET", `/api/purchases/invoices/${toApprove.id}`)).estado,
  ).toBe("aprobada");

  await page.goto(`${base()}/purchases/invoices/${toReject.id}`);
  const saves: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "PATCH") saves.push(r.url());
  });
  await page.getByRole("button", { name: "Rechazar" }).click();
  const dialog = page.getByRole("dialog", { name: "Rechazar" });
  await dialog.getByLabel("Descripción").fill("Importe no pactado");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Rechazar" }).click();
  await expect(page.getByTestId("invoice-state")).toHaveText("rechazada");
  await expect(page.getByText("Importe no pactado")).toBeVisible();
  // Only the rejection was sent: the editor's own form did not try to save the invoice too.
  await page.waitForLoadState("networkidle");
  expect(saves).toEqual([]);
  await expect(page.getByText(/can no longer change/)).toHaveCount(0);
  await shot(page, "purchase-invoice-rejected");
});
