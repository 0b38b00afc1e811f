import { Badge, Button, Checkbox, Grid, Group, NavLink, Paper, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import { useCan } from "../../auth/session";
import { notifyError } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { useRoles } from "./UsersPage";

const ACTIONS = ["leer", "crear", "editar", "eliminar", "validar", "auditar"] as const;

export function RolesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const roles = useRoles();
  const canCreate = useCan("roles:crear");
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: async () => unwrap(await v1.POST("/api/v1/roles", { body: { name: name.trim() } })),
    onSuccess: (r) => {
      setName("");
      setSelected(r.id);
      void client.invalidateQueries({ queryKey: ["roles"] });
    },
    onError: notifyError,
  });
  const role = roles.data?.data.find((r) => r.id === selected) ?? roles.data?.data[0];
  return (
    <>
      <PageHeader title={t("roles.title")} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Paper withBorder p="xs">
            <QueryState query={roles}>
              {(d) => (
                <>
                  {d.data.map((r) => (
                    <NavLink
                      key={r.id}
                      label={r.name}
                      active={r.id === role?.id}
                      onClick={() => setSelected(r.id)}
                      rightSection={r.is_system ? <Badge size="xs">sys</Badge> : null}
                    />
                  ))}
                </>
              )}
            </QueryState>
            {canCreate && (
              <Group gap="xs" mt="sm" wrap="nowrap">
                <TextInput
                  aria-label={t("roles.new")}
                  placeholder={t("roles.new")}
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
                <Button disabled={!name.trim()} loading={create.isPending} onClick={() => create.mutate()}>
                  {t("common.create")}
                </Button>
              </Group>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          {role && <PermissionMatrix roleId={role.id} roleName={role.name} />}
        </Grid.Col>
      </Grid>
    </>
  );
}

/** Module x action: a tick adds the permission to the role, removing it takes it away. */
function PermissionMatrix({ roleId, roleName }: { roleId: string; roleName: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canEdit = useCan("roles:editar");
  const catalog = useQuery({
    queryKey: ["permissions"],
    queryFn: async () => unwrap(await v1.GET("/api/v1/permissions")),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const held = useQuery({
    queryKey: ["roles", roleId, "permissions"],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/roles/{id}/permissions", { params: { path: { id: roleId } } })),
  });
  const toggle = useMutation({
    mutationFn: async ({ permId, on }: { permId: string; on: boolean }) =>
      on
        ? unwrap(
            await v1.POST("/api/v1/roles/{id}/permissions", {
              params: { path: { id: roleId } },
              body: { permission_id: permId },
            }),
          )
        : unwrap(
            await v1.DELETE("/api/v1/roles/{id}/permissions/{perm_id}", {
              params: { path: { id: roleId, perm_id: permId } },
            }),
          ),
    onSettled: () => void client.invalidateQueries({ queryKey: ["roles", roleId, "permissions"] }),
    onError: notifyError,
  });
  const modules = [...new Set((catalog.data ?? []).map((p) => p.modulo))];
  const heldIds = new Set((held.data ?? []).map((p) => p.id));
  const find = (modulo: string, accion: string) =>
    catalog.data?.find((p) => p.modulo === modulo && p.accion === accion);
  return (
    <Paper withBorder>
      <Text fw={600} p="sm">
        {t("roles.matrix", { name: roleName })}
      </Text>
      <QueryState query={catalog}>
        {() => (
          <Table.ScrollContainer minWidth={600}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("roles.module")}</Table.Th>
                  {ACTIONS.map((a) => (
                    <Table.Th key={a} ta="center">
                      {a}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {modules.map((m) => (
                  <Table.Tr key={m}>
                    <Table.Td fw={500}>{m}</Table.Td>
                    {ACTIONS.map((a) => {
                      const perm = find(m, a);
                      return (
                        <Table.Td key={a} ta="center">
                          {perm && (
                            <Checkbox
                              size="xs"
                              style={{ display: "inline-block" }}
                              aria-label={`${m}:${a}`}
                              checked={heldIds.has(perm.id)}
                              disabled={!canEdit || toggle.isPending}
                              onChange={(e) =>
                                toggle.mutate({ permId: perm.id, on: e.currentTarget.checked })
                              }
                            />
                          )}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Paper>
  );
}
