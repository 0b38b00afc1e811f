import { expect, test } from "@playwright/test";
import { ADMIN, api, apiLogin, base, expectAccessible, shot, signIn } from "./helpers";

test("a user with no company assigned who may not list companies is told why, not left loading", async ({
  page,
}) => {
  const { access_token } = await apiLogin(ADMIN.email, ADMIN.password());
  const role = await api<{ id: string }>(access_token, "POST", "/api/v1/roles", {
    name: `sin-empresas-${Date.now()}`,
  });
  await api(access_token, "POST", `/api/v1/roles/${role.id}/permissions`, {
    modulo: "budgets",
    accion: "leer",
  });
  const email = `sinempresa${Date.now()}@example.com`;
  await api(access_token, "POST", "/api/v1/users", {
    email,
    password: "Sin-Empresa-2026!",
    full_name: "Sin Empresa",
    role_ids: [role.id],
  });
  await signIn(page, email, "Sin-Empresa-2026!");
  await page.goto(`${base()}/accounting/contacts`);
  await expect(page.getByText("No hay ninguna empresa con la que trabajar")).toBeVisible();
  await expect(page.getByText(/companies:leer/)).toBeVisible();
  // Only the areas the user may open are offered.
  const nav = page.getByRole("navigation");
  await expect(nav.getByText("Obras")).toBeVisible();
  await expect(nav.getByText("Ventas")).toHaveCount(0);
  await expect(nav.getByText("Impuestos")).toHaveCount(0);
  await expect(page.getByText("Cargando")).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, "company-gate");
  // A screen that needs no company still works.
  await page.goto(`${base()}/projects/budgets`);
  await expect(page.getByText("No hay ninguna empresa con la que trabajar")).toHaveCount(0);
});
