import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { type DocOut, documentsFixture, expectStatus, line } from "../documents/test-support.js";
import { createPurchaseInvoice, invoiceAction } from "./test-support.js";

let t: TestApp;
let storageDir: string;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), "cuadra-purchase-attachments-"));
  t = await createTestApp({ STORAGE_DIR: storageDir, MAX_UPLOAD_MB: "1" });
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(3000), Buffer.from("\n%%EOF\n")]);
const XML = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><fe:Facturae xmlns:fe="http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml"/>',
);

function multipart(fileName: string, content: Buffer, field = "file") {
  const boundary = `----cuadra${randomBytes(8).toString("hex")}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const url = (id: string, rest = "") => `/api/purchases/invoices/${id}/attachments${rest}`;
const upload = (id: string, fileName: string, content: Buffer, token = t.adminToken, field = "file") =>
  t.as(token, { method: "POST", url: url(id), ...multipart(fileName, content, field) });
const storedFiles = () =>
  (readdirSync(storageDir, { recursive: true }) as string[]).filter((f) =>
    statSync(join(storageDir, f)).isFile(),
  );

async function pendingInvoice(companyId = fx.companyId, supplierId = fx.supplier.id) {
  return expectStatus<DocOut>(await createPurchaseInvoice(t, companyId, supplierId, [line("1", "100")]), 201);
}

describe("supplier invoice attachments", () => {
  it("stores the supplier's PDF and XML with their SHA-256 and gives back the identical bytes", async () => {
    const inv = await pendingInvoice();
    const pdf = expectStatus<Record<string, unknown> & { id: string }>(
      await upload(inv.id, "Factura proveedor nº 7.pdf", PDF),
      201,
    );
    expect(pdf).toMatchObject({
      file_name: "Factura proveedor nº 7.pdf",
      content_type: "application/pdf",
      size_bytes: PDF.length,
      sha256: createHash("sha256").update(PDF).digest("hex"),
    });
    const xml = expectStatus<{ id: string }>(await upload(inv.id, "factura.xml", XML), 201);
    const list = expectStatus<Array<{ id: string }>>(
      await t.as(t.adminToken, { method: "GET", url: url(inv.id) }),
      200,
    );
    expect(list.map((a) => a.id)).toEqual([pdf.id, xml.id]);

    const download = await t.as(t.adminToken, { method: "GET", url: url(inv.id, `/${pdf.id}`) });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["content-disposition"]).toContain(
      "filename*=UTF-8''Factura%20proveedor%20n%C2%BA%207.pdf",
    );
    expect(download.rawPayload.equals(PDF)).toBe(true);
    const xmlDownload = await t.as(t.adminToken, { method: "GET", url: url(inv.id, `/${xml.id}`) });
    expect(xmlDownload.headers["content-type"]).toMatch(/^application\/xml/);
    expect(xmlDownload.rawPayload.equals(XML)).toBe(true);
  });

  it("refuses a wrong extension or content (415), an empty file or another part (400), over MAX_UPLOAD_MB (413): nothing stored", async () => {
    const inv = await pendingInvoice();
    const before = storedFiles().length;
    const exe = await upload(inv.id, "factura.exe", PDF);
    expect(exe.statusCode).toBe(415);
    expect(exe.json().detail).toMatch(/not accepted/);
    const fake = await upload(inv.id, "factura.pdf", Buffer.from("MZ this is no pdf"));
    expect(fake.statusCode).toBe(415);
    expect(fake.json().detail).toMatch(/not PDF/);
    expect((await upload(inv.id, "factura.pdf", Buffer.alloc(0))).statusCode).toBe(400);
    expect((await upload(inv.id, "factura.pdf", PDF, t.adminToken, "document")).statusCode).toBe(400);
    const big = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    expect((await upload(inv.id, "grande.pdf", big)).statusCode).toBe(413);
    expect(storedFiles().length).toBe(before);
    expect(
      expectStatus<unknown[]>(await t.as(t.adminToken, { method: "GET", url: url(inv.id) }), 200),
    ).toEqual([]);
  });

  it("deletes a file while the invoice is pending; an approved invoice keeps its files (409) but may receive more", async () => {
    const inv = await pendingInvoice();
    const first = expectStatus<{ id: string }>(await upload(inv.id, "a.pdf", PDF), 201);
    const before = storedFiles().length;
    const del = await t.as(t.adminToken, { method: "DELETE", url: url(inv.id, `/${first.id}`) });
    expect(del.statusCode).toBe(204);
    expect(storedFiles().length).toBe(before - 1);
    expect((await t.as(t.adminToken, { method: "GET", url: url(inv.id, `/${first.id}`) })).statusCode).toBe(
      404,
    );
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: url(inv.id, `/${first.id}`) })).statusCode,
    ).toBe(404);

    const kept = expectStatus<{ id: string }>(await upload(inv.id, "b.pdf", PDF), 201);
    expectStatus(await invoiceAction(t, inv.id, "approve"), 200);
    const refused = await t.as(t.adminToken, { method: "DELETE", url: url(inv.id, `/${kept.id}`) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/aprobada/);
    expectStatus(await upload(inv.id, "c.xml", XML), 201);
    expect(
      expectStatus<unknown[]>(await t.as(t.adminToken, { method: "GET", url: url(inv.id) }), 200),
    ).toHaveLength(2);
  });

  it("a pending invoice with files cannot be deleted until they are (409)", async () => {
    const inv = await pendingInvoice();
    const file = expectStatus<{ id: string }>(await upload(inv.id, "a.pdf", PDF), 201);
    const refused = await t.as(t.adminToken, { method: "DELETE", url: `/api/purchases/invoices/${inv.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/attached files/);
    expectStatus(await t.as(t.adminToken, { method: "DELETE", url: url(inv.id, `/${file.id}`) }), 204);
    expectStatus(
      await t.as(t.adminToken, { method: "DELETE", url: `/api/purchases/invoices/${inv.id}` }),
      204,
    );
  });

  it("another company's invoice is a 404 on every attachment route; permissions are purchases:*", async () => {
    const inv = await pendingInvoice();
    const file = expectStatus<{ id: string }>(await upload(inv.id, "a.pdf", PDF), 201);
    const other = await documentsFixture(t);
    const stranger = await t.userWith(["purchases:leer", "purchases:crear", "purchases:eliminar"], {
      companyId: other.companyId,
    });
    const before = storedFiles().length;
    expect((await t.as(stranger.token, { method: "GET", url: url(inv.id) })).statusCode).toBe(404);
    expect((await t.as(stranger.token, { method: "GET", url: url(inv.id, `/${file.id}`) })).statusCode).toBe(
      404,
    );
    expect((await upload(inv.id, "x.pdf", PDF, stranger.token)).statusCode).toBe(404);
    expect(
      (await t.as(stranger.token, { method: "DELETE", url: url(inv.id, `/${file.id}`) })).statusCode,
    ).toBe(404);
    expect(storedFiles().length).toBe(before);
    // The attachment id under another invoice of ours is a 404 too.
    const second = await pendingInvoice();
    expect((await t.as(t.adminToken, { method: "GET", url: url(second.id, `/${file.id}`) })).statusCode).toBe(
      404,
    );
    // A sales invoice is not a purchase invoice.
    const sale = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/sales/invoices",
        payload: { company_id: fx.companyId, client_id: fx.customer.id, lines: [line("1", "1")] },
      }),
      201,
    );
    expect((await upload(sale.id, "a.pdf", PDF)).statusCode).toBe(404);

    const reader = await t.userWith(["purchases:leer"]);
    expect((await t.as(reader.token, { method: "GET", url: url(inv.id) })).statusCode).toBe(200);
    expect((await upload(inv.id, "x.pdf", PDF, reader.token)).statusCode).toBe(403);
    expect((await t.as(reader.token, { method: "DELETE", url: url(inv.id, `/${file.id}`) })).statusCode).toBe(
      403,
    );
  });
});
