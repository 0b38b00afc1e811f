import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import {
  type DocOut,
  expectStatus,
  issuedSalesInvoice,
  issueSalesInvoice,
  line,
} from "../documents/test-support.js";
import { drawQr, QR_CAPTION, qrMatrix, qrUrl } from "./qr.js";
import { recordOf, recordsOf, verifactuFixture } from "./test-support.js";

/** jsqr is CommonJS: its function is the module itself under Node, `default` under bundlers. */
type Decoder = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: Decoder }).default ?? jsQRModule) as unknown as Decoder;

const dir = mkdtempSync(join(tmpdir(), "cuadra-verifactu-"));
const has = (tool: string) => spawnSync(tool, ["--version"]).error === undefined;
const XMLLINT = has("xmllint");
const POPPLER = has("pdftoppm") && has("pdftotext");

let t: TestApp;
let fx: Awaited<ReturnType<typeof verifactuFixture>>;

beforeAll(async () => {
  t = await createTestApp({ VERIFACTU_ENVIRONMENT: "test" });
  fx = await verifactuFixture(t, { name: "Ficheros & QR, S.L." });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Decodes the QR codes of a grayscale-or-colour PNG with jsQR (pure JavaScript). */
function decodePng(png: PNG): string | null {
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/** Paints what drawQr draws (its rectangles) into a PNG, 4 pixels per point. */
function paint(matrix: boolean[][], size: number): PNG {
  const scale = 4;
  const png = new PNG({ width: size * scale, height: size * scale });
  png.data.fill(255);
  const rects: Array<[number, number, number, number]> = [];
  drawQr({ rect: (x, y, w, h) => rects.push([x, y, w, h]), fill: () => undefined }, matrix, 0, 0, size);
  for (const [x, y, w, h] of rects)
    for (let py = Math.round(y * scale); py < Math.round((y + h) * scale); py++)
      for (let px = Math.round(x * scale); px < Math.round((x + w) * scale); px++) {
        const i = (py * png.width + px) * 4;
        png.data[i] = png.data[i + 1] = png.data[i + 2] = 0;
      }
  return png;
}

function validate(xml: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  const res = spawnSync(
    "xmllint",
    ["--nonet", "--noout", "--schema", fixturePath("verifactu", "xsd", "SuministroLR.xsd"), file],
    {
      env: { ...process.env, XML_CATALOG_FILES: fixturePath("verifactu", "xsd", "catalog.xml") },
      encoding: "utf8",
    },
  );
  return `${res.status} ${res.stderr}`;
}

describe("the QR", () => {
  it("carries the AEAT's ValidarQR URL, URL-encoded, on the configured host", () => {
    const url = qrUrl(
      {
        issuerNif: "89890001K",
        invoiceNumber: "12345678/G33",
        invoiceDate: "2024-01-01",
        importeTotal: "241.40",
      },
      { environment: "test" } as Parameters<typeof qrUrl>[1],
    );
    expect(url).toBe(
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%2FG33&fecha=01-01-2024&importe=241.40",
    );
    expect(
      qrUrl(
        { issuerNif: "89890001K", invoiceNumber: "A-1", invoiceDate: "2024-01-01", importeTotal: "1.00" },
        {
          environment: "production",
        } as Parameters<typeof qrUrl>[1],
      ),
    ).toMatch(/^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=/);
  });

  it("is drawn as squares that a QR reader decodes back to the URL", async () => {
    const url =
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=FV2026-000001&fecha=10-03-2026&importe=121.00";
    expect(decodePng(paint(await qrMatrix(url), 100))).toBe(url);
  });

  it.runIf(POPPLER)(
    "is on the PDF of an invoice issued with VeriFactu on, with VERI*FACTU beside it",
    async () => {
      const invoice = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "100")]);
      const record = (await recordsOf(t, fx.companyId, `&document_id=${invoice.id}`)).data[0];
      const res = await t.as(t.adminToken, { method: "GET", url: `/api/sales/invoices/${invoice.id}/pdf` });
      expect(res.statusCode).toBe(200);
      const pdf = join(dir, "invoice.pdf");
      writeFileSync(pdf, res.rawPayload);
      expect(execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" })).toContain(QR_CAPTION);
      execFileSync("pdftoppm", [
        "-r",
        "150",
        "-png",
        "-f",
        "1",
        "-l",
        "1",
        "-singlefile",
        pdf,
        join(dir, "page"),
      ]);
      const decoded = decodePng(PNG.sync.read(readFileSync(join(dir, "page.png"))));
      expect(decoded).toBe(
        `https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=${record.issuer_nif}&numserie=${encodeURIComponent(invoice.code)}&fecha=10-03-2026&importe=${record.importe_total}`,
      );

      // A company without VeriFactu: no QR, no caption.
      const off = await verifactuFixture(t, { on: false, name: "Sin QR, S.L." });
      const plain = await issuedSalesInvoice(t, off.companyId, off.customer.id, [line("1", "100")]);
      const plainPdf = join(dir, "plain.pdf");
      writeFileSync(
        plainPdf,
        (await t.as(t.adminToken, { method: "GET", url: `/api/sales/invoices/${plain.id}/pdf` })).rawPayload,
      );
      expect(execFileSync("pdftotext", ["-layout", plainPdf, "-"], { encoding: "utf8" })).not.toContain(
        QR_CAPTION,
      );
    },
  );
});

describe.skipIf(!XMLLINT)("AEAT XML (validated with xmllint against the AEAT's XSDs)", () => {
  it("validates the fixture the project ships, so the validator itself works", () => {
    expect(
      validate(readFileSync(fixturePath("verifactu", "cuadra-minimal-alta.xml"), "utf8"), "fixture.xml"),
    ).toMatch(/^0 /);
    expect(validate("<nope/>", "bad.xml")).not.toMatch(/^0 /);
  });

  it("writes a valid RegistroAlta, rectifying record (R1, by differences) and RegistroAnulacion, with the hashed values", async () => {
    // A record before it (the PDF test issues one only where poppler is installed): the XML then
    // carries RegistroAnterior.
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "80")], "2026-03-11");
    const first = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "100", "IVA21"), line("1", "50", "EXENTO")],
      "2026-03-11",
    );
    const firstRecord = (await recordsOf(t, fx.companyId, `&document_id=${first.id}`)).data[0];
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/records/${firstRecord.id}/xml`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/xml/);
    const xml = res.body;
    expect(validate(xml, "alta.xml")).toMatch(/^0 /);
    expect(xml).toContain(`<sum1:Huella>${firstRecord.hash}</sum1:Huella>`);
    expect(xml).toContain(`<sum1:CuotaTotal>${firstRecord.cuota_total}</sum1:CuotaTotal>`);
    expect(xml).toContain(`<sum1:NumSerieFactura>${first.code}</sum1:NumSerieFactura>`);
    expect(xml).toContain("<sum1:OperacionExenta>E1</sum1:OperacionExenta>");
    expect(xml).toContain("Ficheros &amp; QR, S.L.");
    const previous = await recordOf(t, firstRecord.previous_id as string);
    expect(xml).toContain(`<sum1:RegistroAnterior>`);
    expect(xml).toContain(`<sum1:Huella>${previous.hash}</sum1:Huella>`);

    const draft = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${first.id}/rectify`,
        payload: { reason: "Error en el precio" },
      }),
      201,
    );
    const rectifying = expectStatus<DocOut>(await issueSalesInvoice(t, draft.id, "2026-03-12"), 200);
    const rRecord = (await recordsOf(t, fx.companyId, `&document_id=${rectifying.id}`)).data[0];
    const rXml = (
      await t.as(t.adminToken, { method: "GET", url: `/api/verifactu/records/${rRecord.id}/xml` })
    ).body;
    expect(validate(rXml, "rectifying.xml")).toMatch(/^0 /);
    expect(rXml).toContain("<sum1:TipoFactura>R1</sum1:TipoFactura>");
    expect(rXml).toContain("<sum1:TipoRectificativa>I</sum1:TipoRectificativa>");
    expect(rXml).toMatch(
      /<sum1:IDFacturaRectificada>\s*<sum1:IDEmisorFactura>\w+<\/sum1:IDEmisorFactura>\s*<sum1:NumSerieFactura>FV2026-\d+<\/sum1:NumSerieFactura>/,
    );
    expect(rXml).toContain("<sum1:CuotaTotal>-21.00</sum1:CuotaTotal>");

    const cancelled = expectStatus<{ id: string }>(
      await t.as(t.adminToken, { method: "POST", url: `/api/verifactu/records/${firstRecord.id}/cancel` }),
      201,
    );
    const aXml = (
      await t.as(t.adminToken, { method: "GET", url: `/api/verifactu/records/${cancelled.id}/xml` })
    ).body;
    expect(validate(aXml, "anulacion.xml")).toMatch(/^0 /);
    expect(aXml).toContain(`<sum1:NumSerieFacturaAnulada>${first.code}</sum1:NumSerieFacturaAnulada>`);
  });

  it("exports the records generated in a period as one valid file and logs the export", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = await recordsOf(t, fx.companyId);
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/export?company_id=${fx.companyId}&from=2000-01-01&to=2999-12-31`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-total-count"]).toBe(String(all.total));
    expect(validate(res.body, "export.xml")).toMatch(/^0 /);
    expect(res.body.match(/<sum:RegistroFactura>/g)).toHaveLength(all.total);
    const empty = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/export?company_id=${fx.companyId}&from=2000-01-01&to=2000-01-02`,
    });
    expect(empty.headers["x-total-count"]).toBe("0");
    const paged = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/export?company_id=${fx.companyId}&from=${today.slice(0, 4)}-01-01&to=2999-12-31&skip=1`,
    });
    expect(paged.body.match(/<sum:RegistroFactura>/g)?.length).toBe(all.total - 1);
    const backwards = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/export?company_id=${fx.companyId}&from=2026-03-02&to=2026-03-01`,
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors[0].path).toBe("to");
    const missing = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/export?company_id=${fx.companyId}`,
    });
    expect(missing.statusCode).toBe(400);
    const events = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/events?company_id=${fx.companyId}&kind=export`,
    });
    expect(events.json().data.map((e: { event_type: string }) => e.event_type)).toEqual(["08", "08", "08"]);
  });
});
