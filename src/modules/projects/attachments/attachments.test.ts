import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { insertBudget, setBudgetEstado } from "../certifications/test-support.js";

let t: TestApp;
let storageDir: string;
beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), "cuadra-attachments-"));
  t = await createTestApp({ STORAGE_DIR: storageDir, MAX_UPLOAD_MB: "1" });
});
afterAll(async () => {
  await t?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(2000), Buffer.from("\n%%EOF\n")]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(100)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(100)]);
const XML = Buffer.from('\ufeff  \n<?xml version="1.0" encoding="UTF-8"?><fe:Facturae/>');
const CSV = Buffer.from("fecha;concepto;importe\n2025-05-01;Gasóleo;120,50\n");

function multipart(fileName: string, content: Buffer, field = "file") {
  const boundary = `----cuadra${randomBytes(8).toString("hex")}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (entryId: string, fileName: string, content: Buffer, field = "file") =>
  t.as(t.adminToken, {
    method: "POST",
    url: `/api/v1/accounting/${entryId}/attachments`,
    ...multipart(fileName, content, field),
  });

const storedFiles = () =>
  (readdirSync(storageDir, { recursive: true }) as string[]).filter((f) =>
    statSync(join(storageDir, f)).isFile(),
  );

async function newEntry() {
  const budget = await insertBudget(t.db);
  const res = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/v1/accounting",
    payload: { budget_id: budget.id, date: "2025-05-01", category: "other", net_amount: "10" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { budgetId: budget.id, entryId: res.json().id as string };
}

const listOf = async (entryId: string) =>
  (await t.as(t.adminToken, { method: "GET", url: `/api/v1/accounting/${entryId}/attachments` })).json();

describe("cost entry attachments", () => {
  it("stores an upload with its SHA-256 and gives back the identical bytes", async () => {
    const { entryId } = await newEntry();
    const res = await upload(entryId, "Factura nº 42 (obra).pdf", PDF);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      file_name: "Factura nº 42 (obra).pdf",
      content_type: "application/pdf",
      size_bytes: PDF.length,
      sha256: createHash("sha256").update(PDF).digest("hex"),
    });
    expect(await listOf(entryId)).toEqual([body]);

    const download = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/accounting/${entryId}/attachments/${body.id}`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["content-disposition"]).toBe(
      "attachment; filename=\"Factura n_ 42 (obra).pdf\"; filename*=UTF-8''Factura%20n%C2%BA%2042%20%28obra%29.pdf",
    );
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect(createHash("sha256").update(download.rawPayload).digest("hex")).toBe(body.sha256);
  });

  it("accepts png, jpeg, xml and csv, storing the type found in the content", async () => {
    const { entryId } = await newEntry();
    const cases: [string, Buffer, string][] = [
      ["foto.PNG", PNG, "image/png"],
      ["albaran.jpg", JPEG, "image/jpeg"],
      ["parte.jpeg", JPEG, "image/jpeg"],
      ["factura.xml", XML, "application/xml"],
      ["movimientos.csv", CSV, "text/csv"],
    ];
    for (const [name, content, type] of cases) {
      const res = await upload(entryId, name, content);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      expect(res.json().content_type).toBe(type);
    }
  });

  it("refuses other types with 415 and writes nothing", async () => {
    const { entryId } = await newEntry();
    const before = storedFiles().length;
    const refused: [string, Buffer][] = [
      ["setup.exe", Buffer.from("MZ\x90\x00binary")],
      ["factura.pdf", Buffer.from("this is not a pdf")],
      ["foto.png", JPEG],
      ["datos.csv", Buffer.from("a;b\n\x00\x01")],
      ["datos.csv", Buffer.from([0x61, 0xff, 0xfe, 0x62])],
      ["factura.xml", Buffer.from("not xml")],
      ["sin-extension", PDF],
    ];
    for (const [name, content] of refused) {
      const res = await upload(entryId, name, content);
      expect(res.statusCode, name).toBe(415);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    }
    expect(await listOf(entryId)).toEqual([]);
    expect(storedFiles()).toHaveLength(before);
  });

  it("answers 413 above MAX_UPLOAD_MB and leaves no row and no file", async () => {
    const { entryId } = await newEntry();
    const before = storedFiles().length;
    const big = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(1.5 * 1024 * 1024, 0x20)]);
    const res = await upload(entryId, "grande.pdf", big);
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe(413);
    expect(await listOf(entryId)).toEqual([]);
    expect(storedFiles()).toHaveLength(before);
  });

  it("answers 400 when the request has no file or sends it under another name", async () => {
    const { entryId } = await newEntry();
    const boundary = "----cuadranofile";
    const noFile = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/accounting/${entryId}/attachments`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhola\r\n--${boundary}--\r\n`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(noFile.statusCode).toBe(400);
    expect((await upload(entryId, "a.pdf", PDF, "document")).statusCode).toBe(400);
    expect((await upload(entryId, "vacio.pdf", Buffer.alloc(0))).statusCode).toBe(400);
  });

  it("deletes the row and the file, and the entry's deletion removes its files", async () => {
    const { entryId } = await newEntry();
    const first = (await upload(entryId, "a.pdf", PDF)).json();
    await upload(entryId, "b.png", PNG);
    const before = storedFiles().length;
    const url = `/api/v1/accounting/${entryId}/attachments/${first.id}`;
    expect((await t.as(t.adminToken, { method: "DELETE", url })).statusCode).toBe(204);
    expect(storedFiles()).toHaveLength(before - 1);
    expect((await t.as(t.adminToken, { method: "GET", url })).statusCode).toBe(404);
    expect((await t.as(t.adminToken, { method: "DELETE", url })).statusCode).toBe(404);

    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/accounting/${entryId}` })).statusCode,
    ).toBe(204);
    expect(storedFiles()).toHaveLength(before - 2);
  });

  it("refuses uploads and deletions on a finalized budget with 409", async () => {
    const { budgetId, entryId } = await newEntry();
    const kept = (await upload(entryId, "a.pdf", PDF)).json();
    await setBudgetEstado(t.db, budgetId, "finalizado");
    const before = storedFiles().length;
    expect((await upload(entryId, "b.pdf", PDF)).statusCode).toBe(409);
    const url = `/api/v1/accounting/${entryId}/attachments/${kept.id}`;
    expect((await t.as(t.adminToken, { method: "DELETE", url })).statusCode).toBe(409);
    expect(storedFiles()).toHaveLength(before);
    expect(await listOf(entryId)).toHaveLength(1);
  });

  it("answers 404 for an unknown entry and 400 for a non-UUID attachment id", async () => {
    const unknown = "0190f5a0-0000-7000-8000-000000000000";
    expect((await upload(unknown, "a.pdf", PDF)).statusCode).toBe(404);
    const { entryId } = await newEntry();
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/accounting/${entryId}/attachments/nope`,
    });
    expect(res.statusCode).toBe(400);
  });
});
