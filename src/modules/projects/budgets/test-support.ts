import type { InjectOptions, LightMyRequestResponse } from "fastify";

/** Test setup through the HTTP API (what test/helpers/app.ts's TestApp provides). */
export interface Api {
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

let counter = 0;
export const uniqueCode = (prefix = "OBRA") => `${prefix}-${Date.now().toString(36)}-${++counter}`;

async function ok(res: LightMyRequestResponse, status: number) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

export async function createBudget(api: Api, token: string, body: Record<string, unknown> = {}) {
  const payload = { code: uniqueCode(), name: "Edificio de 12 viviendas", ...body };
  return ok(await api.as(token, { method: "POST", url: "/api/v1/budgets", payload }), 201);
}

export async function createItem(api: Api, token: string, body: Record<string, unknown>) {
  const payload = { code: uniqueCode("P"), ...body };
  return ok(await api.as(token, { method: "POST", url: "/api/v1/budget-items", payload }), 201);
}

export async function getBudget(api: Api, token: string, id: string) {
  return ok(await api.as(token, { method: "GET", url: `/api/v1/budgets/${id}` }), 200);
}

const PATHS: Record<string, string[]> = {
  borrador: [],
  aprobado: ["aprobado"],
  en_ejecucion: ["aprobado", "en_ejecucion"],
  finalizado: ["aprobado", "en_ejecucion", "finalizado"],
  cancelado: ["cancelado"],
};

/** Walks a borrador budget through the allowed transitions to `estado` (token needs budgets:editar+validar). */
export async function bringBudgetTo(api: Api, token: string, id: string, estado: string) {
  for (const step of PATHS[estado]) {
    await ok(
      await api.as(token, { method: "PUT", url: `/api/v1/budgets/${id}/estado`, payload: { estado: step } }),
      200,
    );
  }
}

/** An app.inject body uploading `content` as the multipart file field `field`. */
export function multipartFile(
  content: Buffer,
  fileName = "presupuesto.bc3",
  field = "file",
  fields: Record<string, string> = {},
) {
  const boundary = `----cuadra-test-${Date.now().toString(36)}`;
  const texts = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join("");
  const head = Buffer.from(
    `${texts}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}
