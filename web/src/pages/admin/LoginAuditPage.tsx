import { Badge } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { PageHeader } from "../../components/PageHeader";

export function LoginAuditPage() {
  const { t, i18n } = useTranslation();
  const audit = useQuery({
    queryKey: ["login-audit"],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/auth/login-audit", { params: { query: { limit: 500 } } })),
  });
  const when = new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "es-ES", {
    dateStyle: "short",
    timeStyle: "medium",
  });
  return (
    <>
      <PageHeader
        title={t("audit.title")}
        subtitle={audit.data && t("common.results", { count: audit.data.total })}
      />
      <DataTable
        query={audit}
        columns={[
          {
            key: "when",
            header: t("audit.when"),
            render: (r) => when.format(new Date(r.created_at)),
            width: 170,
          },
          { key: "email", header: t("auth.email"), render: (r) => r.email },
          {
            key: "ok",
            header: t("common.status"),
            render: (r) => (
              <Badge color={r.success ? "teal" : "red"}>
                {r.success ? t("audit.success") : t("audit.failed")}
              </Badge>
            ),
          },
          { key: "reason", header: t("common.description"), render: (r) => r.reason },
          { key: "ip", header: t("audit.ip"), render: (r) => r.ip ?? "—", mono: true },
        ]}
      />
    </>
  );
}
