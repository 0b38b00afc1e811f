import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from "node:fs";
import * as fs from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import { createFileStorage, type StorageFs } from "../../platform/storage.js";
import { createBudget, multipartFile } from "./budgets/test-support.js";
import { insertBudget } from "./certifications/test-support.js";

/**
 * Uploads of both kinds (BC3 imports, cost attachments) against broken requests and a failing
 * disk. The disk faults are injected in the storage's file system calls; the database is real.
 */
let t: TestApp;
let storageDir: string;
let fault: NodeJS.ErrnoException | undefined;

const faultyFs: StorageFs = {
  ...fs,
  writeFile: (async (path: string, data: Buffer, options: object) => {
    if (!fault) return fs.writeFile(path, data, options);
    // the disk fills up half-way: part of the file is on disk when the error comes
    await fs.writeFile(path, data.subarray(0, Math.floor(data.length / 2)), options);
    throw fault;
  }) as StorageFs["writeFile"],
};

beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), "cuadra-uploads-"));
  t = await createTestApp(
    { STORAGE_DIR: storageDir },
    { fileStorage: createFileStorage(storageDir, faultyFs) },
  );
});
afterAll(async () => {
  await t?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

const errnoError = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(4000), Buffer.from("\n%%EOF\n")]);
const BC3 = Buffer.from("~V|SOFT|FIEBDC-3/2016|Prog||ANSI||\r\n~C|UP##||Subida|0|\r\n", "latin1");

const filesOnDisk = () =>
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
  return res.json().id as string;
}

/** The three upload routes, each with a fresh target. */
async function uploadUrls(): Promise<string[]> {
  const budget = await createBudget(t, t.adminToken);
  return [
    "/api/v1/budgets/import-bc3",
    `/api/v1/budgets/${budget.id}/import-bc3`,
    `/api/v1/accounting/${await newEntry()}/attachments`,
  ];
}

const post = (url: string, payload: Buffer | string, contentType: string) =>
  t.as(t.adminToken, { method: "POST", url, payload, headers: { "content-type": contentType } });

describe("malformed multipart bodies are 400 problems on every upload route", () => {
  it("multipart/form-data with no boundary", async () => {
    for (const url of await uploadUrls()) {
      const { payload } = multipartFile(BC3, "a.pdf");
      const body = expectProblem(await post(url, payload, "multipart/form-data"), 400);
      expect(body.detail, url).toMatch(/boundary/);
    }
  });

  it("a body cut before its closing boundary", async () => {
    for (const url of await uploadUrls()) {
      const { payload, headers } = multipartFile(PDF, "a.pdf");
      const cut = payload.subarray(0, payload.length - 40);
      const body = expectProblem(await post(url, cut, headers["content-type"]), 400);
      expect(body.detail, url).toMatch(/malformed or truncated/);
    }
  });

  it("a body that ends inside a part's headers", async () => {
    for (const url of await uploadUrls()) {
      const boundary = "----cut";
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filen`;
      expectProblem(await post(url, payload, `multipart/form-data; boundary=${boundary}`), 400);
    }
  });

  it("two files in one upload are refused and nothing is saved", async () => {
    const urls = await uploadUrls();
    const budgetsBefore = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets" })).json().total;
    const filesBefore = filesOnDisk().length;
    for (const url of urls) {
      const boundary = "----two";
      const part = (name: string, content: Buffer) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
              "Content-Type: application/octet-stream\r\n\r\n",
          ),
          content,
          Buffer.from("\r\n"),
        ]);
      const content = url.endsWith("attachments") ? PDF : BC3;
      const payload = Buffer.concat([
        part("a.pdf", content),
        part("b.pdf", content),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const body = expectProblem(await post(url, payload, `multipart/form-data; boundary=${boundary}`), 400);
      expect(body.errors, url).toEqual([
        { path: "body.file", message: "the upload carries more than one file" },
      ]);
    }
    const budgetsAfter = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets" })).json().total;
    expect(budgetsAfter).toBe(budgetsBefore);
    expect(filesOnDisk().length).toBe(filesBefore);
  });
});

describe("storage faults", () => {
  const attach = (entryId: string) =>
    t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/accounting/${entryId}/attachments`,
      ...multipartFile(PDF, "factura.pdf"),
    });
  const listOf = async (entryId: string) =>
    (await t.as(t.adminToken, { method: "GET", url: `/api/v1/accounting/${entryId}/attachments` })).json();

  it("a full disk is a 507 that leaves no .partial file and no attachment row", async () => {
    const entryId = await newEntry();
    const before = filesOnDisk();
    fault = errnoError("ENOSPC");
    try {
      const body = expectProblem(await attach(entryId), 507);
      expect(body.type).toBe("urn:cuadra:problem:storage-full");
    } finally {
      fault = undefined;
    }
    expect(filesOnDisk()).toEqual(before);
    expect(filesOnDisk().filter((f) => f.endsWith(".partial"))).toEqual([]);
    expect(await listOf(entryId)).toEqual([]);
    expect((await attach(entryId)).statusCode).toBe(201); // space again: it works
  });

  it("a disk that cannot be written is a 503 with Retry-After, nothing left behind", async () => {
    const entryId = await newEntry();
    const before = filesOnDisk();
    fault = errnoError("EROFS");
    try {
      const res = await attach(entryId);
      expectProblem(res, 503);
      expect(res.headers["retry-after"]).toBeDefined();
    } finally {
      fault = undefined;
    }
    expect(filesOnDisk()).toEqual(before);
    expect(await listOf(entryId)).toEqual([]);
  });

  it("an attachment whose file is gone is a 404 naming the file, logged as an integrity error", async () => {
    const entryId = await newEntry();
    const created = await attach(entryId);
    expect(created.statusCode).toBe(201);
    const attachment = created.json();
    const [key] = filesOnDisk()
      .filter((f) => !f.endsWith(".partial"))
      .slice(-1);
    unlinkSync(join(storageDir, key));

    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/accounting/${entryId}/attachments/${attachment.id}`,
    });
    const body = expectProblem(res, 404);
    expect(body.detail).toContain('"factura.pdf"');
    expect(body.type).toBe("urn:cuadra:problem:stored-file-missing");
    const logged = t.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.integrity === true && l.reqId === res.headers["x-request-id"]);
    expect(logged).toMatchObject({ level: 50, storageKey: key });
  });
});
