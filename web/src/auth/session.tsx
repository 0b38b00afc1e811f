import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { api, unwrap, v1 } from "../api/client";
import { tokens } from "../api/session";

const COMPANY_KEY = "cuadra.company_id";

export function useMe() {
  return useQuery({
    queryKey: ["me"],
    queryFn: async () => unwrap(await v1.GET("/api/v1/users/me")),
    staleTime: 60_000,
  });
}

/** Whether the signed-in user holds a "module:action" permission; screens hide what it refuses. */
export function useCan(permission: string): boolean {
  const me = useMe();
  return me.data?.permissions.includes(permission) ?? false;
}

export async function signIn(email: string, password: string) {
  const pair = unwrap(await v1.POST("/api/v1/auth/login", { body: { email, password } }));
  tokens.set(pair);
}

export function useSignOut() {
  const client = useQueryClient();
  return useCallback(async () => {
    const refresh = tokens.refresh;
    // Revokes both tokens on the server; the local session ends whatever it answers.
    await v1
      .POST("/api/v1/auth/logout", { body: refresh ? { refresh_token: refresh } : null })
      .catch(() => {});
    tokens.clear();
    client.clear();
    window.location.assign("/login");
  }, [client]);
}

interface CompanyState {
  companyId: string | null;
  setCompanyId(id: string): void;
  companies: { id: string; name: string }[];
  /**
   * Why no company can be chosen once everything has loaded: the user may not list companies
   * (companies:leer) and has none assigned, or the tenant has none yet. Null while loading or
   * when a company is chosen.
   */
  missing: "forbidden" | "none" | null;
}

const CompanyContext = createContext<CompanyState>({
  companyId: null,
  setCompanyId: () => {},
  companies: [],
  missing: null,
});

/** The company the accounting screens work on; the tenant itself comes from the host name. */
export function CompanyProvider({ children }: { children: ReactNode }) {
  const me = useMe();
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(COMPANY_KEY));
  const companies = useQuery({
    queryKey: ["companies"],
    enabled: me.isSuccess,
    queryFn: async () => unwrap(await api.GET("/api/companies", { params: { query: { limit: 200 } } })),
    retry: false,
  });
  const list = useMemo(
    () => (companies.data?.data ?? []).map((c) => ({ id: c.id, name: c.name })),
    [companies.data],
  );
  const fixed = me.data?.company_id ?? null;
  const companyId =
    fixed ?? (chosen && list.some((c) => c.id === chosen) ? chosen : (list[0]?.id ?? chosen ?? null));
  const settled = me.isSuccess && (fixed !== null || companies.isSuccess || companies.isError);
  const missing = !settled || companyId ? null : companies.isError ? "forbidden" : "none";
  const client = useQueryClient();
  const value = useMemo<CompanyState>(
    () => ({
      companyId,
      missing,
      companies: list,
      setCompanyId: (id) => {
        localStorage.setItem(COMPANY_KEY, id);
        setChosen(id);
        void client.invalidateQueries({
          predicate: (q) => q.queryKey[0] !== "me" && q.queryKey[0] !== "companies",
        });
      },
    }),
    [companyId, missing, list, client],
  );
  return <CompanyContext.Provider value={value}>{children}</CompanyContext.Provider>;
}

export function useCompany() {
  return useContext(CompanyContext);
}
