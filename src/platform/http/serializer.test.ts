import Fastify from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { moneyOutput } from "../money.js";
import { createResponseSerializerCompiler, serializationSchema } from "./serializer.js";

interface Node {
  code: string;
  children: Node[];
}
const node: z.ZodType<Node> = z
  .object({
    code: z.string(),
    get children() {
      return z.array(node);
    },
  })
  .meta({ id: "SerializerTestNode" });
// The id lives in zod's global registry, which outlives this file in a shared worker
// (isolate: false): left there, it became a component of every OpenAPI document built after.
afterAll(() => {
  z.globalRegistry.remove(node);
});

const line = z.object({ line_no: z.number().int(), amount: moneyOutput });
const card = z.object({ kind: z.literal("card"), last4: z.string() });
const transfer = z.object({ kind: z.literal("transfer"), iban: z.string() });
const schema = z.object({
  id: z.uuid(),
  name: z.string().describe("Shown name"),
  total: moneyOutput,
  count: z.number().int(),
  ratio: z.number(),
  active: z.boolean(),
  estado: z.enum(["borrador", "emitida"]),
  estado_prev: z.enum(["borrador", "emitida"]).nullable(),
  note: z.string().nullable(),
  optional_note: z.string().optional(),
  issued_at: z.string().nullable(),
  contact: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  lines: z.array(line),
  payment: z.union([card, transfer]),
  boxes: z.record(z.string(), z.string()),
  tree: z.array(node),
});

const ID = "0195f3c0-0000-7000-8000-000000000001";
const clean = {
  id: ID,
  name: 'Cliente "Ñandú", S.L.',
  total: "1234.50",
  count: 3,
  ratio: 0.25,
  active: true,
  estado: "emitida",
  estado_prev: null,
  note: null,
  issued_at: "2026-03-01T10:00:00.000Z",
  contact: { id: ID, name: "Contacto" },
  lines: [
    { line_no: 1, amount: "0.10" },
    { line_no: 2, amount: "-99999999.99" },
  ],
  payment: { kind: "transfer", iban: "ES9121000418450200051332" },
  boxes: { "01": "100.00", "03": "21.00" },
  tree: [{ code: "01", children: [{ code: "01.01", children: [] }] }],
};
/** The same response with a secret at every level the handler could let one in. */
const leaky = {
  ...clean,
  password_hash: "$argon2id$secret",
  contact: { ...clean.contact, api_token: "cdr_secret" },
  lines: clean.lines.map((l) => ({ ...l, cost_secret: "1.00" })),
  payment: { ...clean.payment, cvv: "123" },
  tree: [{ code: "01", secret: "x", children: [{ code: "01.01", children: [], secret: "y" }] }],
};

async function serve(data: unknown, opts: { strict: boolean; response?: z.ZodType }) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler(opts));
  app.get("/x", { schema: { response: { 200: opts.response ?? schema } } }, async () => data);
  const res = await app.inject({ method: "GET", url: "/x" });
  await app.close();
  return res;
}

describe("response serializer (fast-json-stringify from the zod schema)", () => {
  for (const strict of [false, true]) {
    const mode = strict ? "checked by zod (tests)" : "production";
    it(`writes exactly what zod wrote, ${mode}`, async () => {
      const res = await serve(clean, { strict });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(JSON.parse(JSON.stringify(schema.parse(clean))));
      expect(res.json().total).toBe("1234.50");
      expect(res.json().lines[1].amount).toBe("-99999999.99");
    });

    it(`never leaks an undeclared field, nested in objects, arrays, unions and recursion, ${mode}`, async () => {
      const res = await serve(leaky, { strict });
      expect(res.statusCode).toBe(200);
      for (const secret of [
        "password_hash",
        "api_token",
        "cost_secret",
        "cvv",
        "secret",
        "$argon2id",
        "cdr_",
      ])
        expect(res.body).not.toContain(secret);
      expect(res.json()).toEqual(clean);
    });

    it(`fails loudly on a missing required field, ${mode}`, async () => {
      const { name: _name, ...broken } = clean;
      const res = await serve(broken, { strict });
      expect(res.statusCode).toBe(500);
    });
  }

  it("under tests, a response that breaks its schema in a way fast-json-stringify would coerce fails", async () => {
    for (const broken of [
      { ...clean, count: "3" },
      { ...clean, estado: "pagada" },
      { ...clean, total: 1234.5 },
      { ...clean, lines: [{ line_no: 1.5, amount: "1.00" }] },
    ]) {
      expect((await serve(broken, { strict: true })).statusCode).toBe(500);
    }
  });

  it("writes a top-level array and a nullable object", async () => {
    const list = z.array(z.object({ a: z.string() }).nullable());
    const res = await serve([{ a: "1", b: "secret" }, null], { strict: true, response: list });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('[{"a":"1"},null]');
  });

  it("compiles the JSON schema without strict extras, nullable as a type list", () => {
    const json = serializationSchema(schema) as {
      additionalProperties?: unknown;
      properties: Record<string, { type?: unknown; anyOf?: unknown }>;
    };
    expect(json.additionalProperties).toBeUndefined();
    expect(json.properties.note.type).toEqual(["string", "null"]);
    expect(json.properties.contact.type).toEqual(["object", "null"]);
    expect(json.properties.payment.anyOf).toHaveLength(2);
  });
});
