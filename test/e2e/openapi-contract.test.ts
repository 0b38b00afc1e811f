import { beforeAll, describe, expect, it } from "vitest";
import {
  buildOpenApiDocuments,
  OPENAPI_URLS,
  type OpenApiDocument,
} from "../../src/app/openapi-documents.js";

// What client generators and gateways need from both documents; redocly lint (.ci/run) checks the rest.

let documents: Record<string, OpenApiDocument>;
beforeAll(async () => {
  documents = await buildOpenApiDocuments();
});

const METHODS = ["get", "put", "post", "delete", "patch"];
// biome-ignore lint/suspicious/noExplicitAny: OpenAPI operation objects walked by hand
type Operation = Record<string, any>;

function operationsOf(doc: OpenApiDocument): Array<{ route: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      route: `${m.toUpperCase()} ${path}`,
      op: item[m] as Operation,
    })),
  );
}

describe.each(OPENAPI_URLS)("%s", (url) => {
  it("gives every operation a unique camelCase operationId", () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const { route, op } of operationsOf(documents[url])) {
      const id = op.operationId as string | undefined;
      if (!id) {
        problems.push(
          `${route} has no operationId: add \`operationId: "verbNoun"\` (camelCase, e.g. "listBudgets", ` +
            `"issueSalesInvoice") to its route schema, beside \`summary\``,
        );
      } else if (!/^[a-z][a-zA-Z0-9]*$/.test(id)) {
        problems.push(
          `${route}: operationId "${id}" must be camelCase letters and digits, e.g. "listBudgets"`,
        );
      } else if (seen.has(id)) {
        problems.push(
          `${route}: operationId "${id}" is already used by ${seen.get(id)}; ` +
            "operationIds are unique in a document: name the verb and noun of this operation",
        );
      } else seen.set(id, route);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("documents every error as application/problem+json referencing the one Problem component", () => {
    const doc = documents[url] as Operation;
    expect(doc.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(["type", "title", "status", "detail", "instance"]),
    );
    const problems: string[] = [];
    for (const { route, op } of operationsOf(documents[url])) {
      if (route.includes(" /api/mcp")) continue; // the MCP transport documents its own answers
      for (const status of ["400", "401", "403", "500", "503"]) {
        if (status === "401" || status === "403") {
          if (op.security?.length === 0) continue;
        }
        if (status === "400" && !op.parameters?.length && !op.requestBody) continue;
        if (!op.responses[status]) problems.push(`${route} does not document ${status}`);
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, Operation>)) {
        if (Number(status) < 400) continue;
        const content = response.content ?? {};
        if (
          JSON.stringify(content) !==
          JSON.stringify({ "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } })
        ) {
          problems.push(`${route} ${status}: ${JSON.stringify(content).slice(0, 120)}`);
        }
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("describes every response (no 'Default Response') and states the security of every operation", () => {
    const problems: string[] = [];
    for (const { route, op } of operationsOf(documents[url])) {
      if (!Array.isArray(op.security)) problems.push(`${route}: no security`);
      if (!op.summary) problems.push(`${route}: no summary`);
      for (const [status, response] of Object.entries(op.responses as Record<string, Operation>)) {
        if (route.includes(" /api/mcp")) continue;
        if (!response.description || response.description === "Default Response") {
          problems.push(`${route} ${status}: describe the response (.describe() on its schema)`);
        }
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("has servers, a license and a description for every tag its operations use", () => {
    const doc = documents[url] as Operation;
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.info.license.name).toBeTruthy();
    const described = new Map(
      (doc.tags as Array<{ name: string; description?: string }>).map((t) => [t.name, t]),
    );
    for (const { route, op } of operationsOf(documents[url])) {
      for (const tag of op.tags ?? []) {
        expect(
          described.get(tag)?.description,
          `${route}: tag "${tag}" has no description; add it to the tags of ${url.replace("/openapi.json", "")} in src/app/api-docs.ts`,
        ).toBeTruthy();
      }
    }
  });
});

describe("uploads", () => {
  const uploads = [
    ["/api/v1/openapi.json", "/api/v1/budgets/import-bc3", []],
    ["/api/v1/openapi.json", "/api/v1/budgets/{budget_id}/import-bc3", []],
    ["/api/v1/openapi.json", "/api/v1/accounting/{id}/attachments", []],
    ["/api/openapi.json", "/api/purchases/invoices/{id}/attachments", []],
    ["/api/openapi.json", "/api/bank-reconciliation/import", ["bank_account_id"]],
  ] as const;

  it.each(uploads)("%s POST %s has a multipart body with its file part", (url, path, fields) => {
    const body = documents[url].paths[path].post.requestBody as Operation;
    const schema = body.content["multipart/form-data"].schema;
    expect(schema.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(schema.required).toEqual(["file", ...fields]);
    for (const field of fields) expect(schema.properties[field].type).toBe("string");
  });
});

describe("public operations", () => {
  it.each([
    ["/api/v1/openapi.json", "/api/v1/auth/login"],
    ["/api/v1/openapi.json", "/api/v1/auth/refresh"],
    ["/api/openapi.json", "/api/auth/login"],
    ["/api/openapi.json", "/api/auth/refresh"],
  ] as const)("%s POST %s states it needs no credentials", (url, path) => {
    expect(documents[url].paths[path].post.security).toEqual([]);
  });
});
