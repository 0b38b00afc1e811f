import { Alert, AppShell, Burger, Group, NavLink, ScrollArea, Select, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import {
  IconBuildingBank,
  IconCalculator,
  IconChartBar,
  IconHome,
  IconReceipt,
  IconReceiptTax,
  IconSettings,
  IconShoppingCart,
  IconTools,
} from "@tabler/icons-react";
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CompanyProvider, useCan, useCompany, useMe } from "../auth/session";
import { UserMenu } from "./UserMenu";

interface NavItem {
  to: string;
  label: string;
  permission: string;
}
interface NavArea {
  label: string;
  icon: ReactNode;
  items: NavItem[];
}

function useAreas(): NavArea[] {
  const { t } = useTranslation();
  const size = 16;
  return [
    {
      label: t("shell.projects"),
      icon: <IconTools size={size} />,
      items: [{ to: "/projects/budgets", label: t("shell.budgets"), permission: "budgets:leer" }],
    },
    {
      label: t("shell.accounting"),
      icon: <IconCalculator size={size} />,
      items: [
        { to: "/accounting/entries", label: t("shell.entries"), permission: "accounting:leer" },
        { to: "/accounting/trial-balance", label: t("shell.trialBalance"), permission: "accounting:leer" },
        { to: "/accounting/accounts", label: t("shell.accounts"), permission: "accounting:leer" },
        { to: "/accounting/fiscal-years", label: t("shell.fiscalYears"), permission: "accounting:leer" },
        { to: "/accounting/companies", label: t("companies.title"), permission: "companies:leer" },
        { to: "/accounting/contacts", label: t("shell.contacts"), permission: "clients:leer" },
        { to: "/accounting/products", label: t("shell.products"), permission: "products:leer" },
        { to: "/accounting/families", label: t("masters.families"), permission: "products:leer" },
        { to: "/accounting/agents", label: t("masters.agents"), permission: "agents:leer" },
      ],
    },
    {
      label: t("shell.sales"),
      icon: <IconReceipt size={size} />,
      items: [
        { to: "/sales/invoices", label: t("shell.salesInvoices"), permission: "sales:leer" },
        { to: "/sales/orders", label: t("salesOrders.title"), permission: "sales:leer" },
      ],
    },
    {
      label: t("shell.purchases"),
      icon: <IconShoppingCart size={size} />,
      items: [
        { to: "/purchases/invoices", label: t("shell.purchaseInvoices"), permission: "purchases:leer" },
        { to: "/purchases/orders", label: t("salesOrders.title"), permission: "purchases:leer" },
      ],
    },
    {
      label: t("shell.treasury"),
      icon: <IconBuildingBank size={size} />,
      items: [
        { to: "/treasury/receipts", label: t("treasuryPages.receipts"), permission: "treasury:leer" },
        { to: "/treasury/payments", label: t("treasuryPages.payments"), permission: "treasury:leer" },
        { to: "/treasury/aging", label: t("treasuryPages.aging"), permission: "treasury:leer" },
        { to: "/treasury/budgets", label: t("treasuryPages.forecast"), permission: "treasury:leer" },
        { to: "/treasury/cash-flow", label: t("shell.cashFlow"), permission: "treasury:leer" },
        { to: "/treasury/bank", label: t("shell.bank"), permission: "banking:leer" },
      ],
    },
    {
      label: t("tax.area"),
      icon: <IconReceiptTax size={size} />,
      items: [
        { to: "/tax/returns", label: t("tax.returns"), permission: "tax:leer" },
        { to: "/tax/vat-books", label: t("tax.vatBooks"), permission: "tax:leer" },
        { to: "/tax/box-map", label: t("tax.boxMap"), permission: "tax:leer" },
      ],
    },
    {
      label: t("shell.admin"),
      icon: <IconSettings size={size} />,
      items: [
        { to: "/admin/users", label: t("shell.users"), permission: "usuarios:leer" },
        { to: "/admin/roles", label: t("shell.roles"), permission: "roles:leer" },
        { to: "/admin/login-audit", label: t("shell.loginAudit"), permission: "admin:auditar" },
        { to: "/admin/api-tokens", label: t("shell.apiTokens"), permission: "api_tokens:leer" },
      ],
    },
  ];
}

function AreaNav({ area, path }: { area: NavArea; path: string }) {
  const me = useMe();
  // An area none of whose screens the user may open is not offered at all.
  if (!area.items.some((i) => me.data?.permissions.includes(i.permission))) return null;
  return (
    <NavLink
      label={area.label}
      leftSection={area.icon}
      defaultOpened={area.items.some((i) => path.startsWith(i.to))}
      childrenOffset={26}
      fw={500}
    >
      {area.items.map((item) => (
        <GuardedLink key={item.to} item={item} path={path} />
      ))}
    </NavLink>
  );
}

function GuardedLink({ item, path }: { item: NavItem; path: string }) {
  const allowed = useCan(item.permission);
  if (!allowed) return null;
  return (
    <NavLink component={Link} to={item.to} label={item.label} active={path.startsWith(item.to)} py={4} />
  );
}

function CompanySwitcher() {
  const { t } = useTranslation();
  const { companies, companyId, setCompanyId } = useCompany();
  if (!companies.length) return null;
  return (
    <Select
      aria-label={t("shell.company")}
      w={240}
      data={companies.map((c) => ({ value: c.id, label: c.name }))}
      value={companyId}
      onChange={(v) => v && setCompanyId(v)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The areas whose screens read one company's books. */
const COMPANY_AREAS = ["/accounting", "/sales", "/purchases", "/treasury", "/tax"];

/**
 * A company-bound screen with no company to work on says why, instead of waiting forever for
 * queries that cannot start without one.
 */
function CompanyGate({ path, children }: { path: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { missing } = useCompany();
  if (!missing || !COMPANY_AREAS.some((area) => path.startsWith(area))) return <>{children}</>;
  return (
    <Alert color="yellow" title={t("shell.noCompanyTitle")} maw={640}>
      {t(missing === "forbidden" ? "shell.noCompanyForbidden" : "shell.noCompanyYet")}
    </Alert>
  );
}

export function AppLayout() {
  const [opened, { toggle }] = useDisclosure();
  const { t } = useTranslation();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const areas = useAreas();
  return (
    <CompanyProvider>
      <AppShell
        header={{ height: 48 }}
        navbar={{ width: 232, breakpoint: "sm", collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t("shell.toggleNav")}
              />
              <Text component={Link} to="/" fw={700} c="indigo.8" fz="lg">
                Cuadra
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <CompanySwitcher />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label={t("shell.toggleNav")}>
          <AppShell.Section grow component={ScrollArea}>
            <NavLink
              component={Link}
              to="/"
              label={t("shell.dashboard")}
              leftSection={<IconHome size={16} />}
              active={path === "/"}
              fw={500}
            />
            {areas.map((area) => (
              <AreaNav key={area.label} area={area} path={path} />
            ))}
          </AppShell.Section>
          <AppShell.Section>
            <Group gap={6} px="xs" c="dimmed">
              <IconChartBar size={14} />
              <Text size="xs">v0.1</Text>
            </Group>
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main bg="gray.0">
          <CompanyGate path={path}>
            <Outlet />
          </CompanyGate>
        </AppShell.Main>
      </AppShell>
    </CompanyProvider>
  );
}
