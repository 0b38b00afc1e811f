import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { loadConfig } from "../../../config.js";
import { expectStatus, issuedSalesInvoice, line } from "../../documents/test-support.js";
import { findRecordsByIds } from "../repository.js";
import { type RecordOut, recordOf as recordOfApi, recordsOf, verifactuFixture } from "../test-support.js";
import { settleBatch } from "./repository.js";
import { claimNextBatch, runSubmission, startSubmissionWorker } from "./service.js";
import { submissionEnvelope } from "./soap.js";
import { httpsSoapPost } from "./transport.js";

/**
 * The sender against a local HTTPS server that answers like the AEAT (RespuestaSuministro.xsd):
 * mutual TLS with a certificate made here with openssl, batches, per-record verdicts, a rejected
 * record, a timeout with its retry, a worker that dies mid-batch, the in-process interval.
 */

const dir = mkdtempSync(join(tmpdir(), "cuadra-verifactu-aeat-"));
const has = (tool: string) => spawnSync(tool, ["--version"]).error === undefined;
const XMLLINT = has("xmllint");
const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

function makeCertificates() {
  ssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-keyout",
    "server.key",
    "-out",
    "server.pem",
  );
  ssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=B12345674/O=Cuadra test",
    "-keyout",
    "client.key",
    "-out",
    "client.pem",
  );
  ssl(
    "pkcs12",
    "-export",
    "-inkey",
    "client.key",
    "-in",
    "client.pem",
    "-out",
    "client.p12",
    "-passout",
    "pass:secreto",
  );
}

type Mode = "accept" | "reject_one" | "timeout" | "fault";

/** What the fake AEAT saw and holds: every request, and the records registered (once each). */
const aeat = {
  mode: "accept" as Mode,
  rejectNumber: "",
  requests: [] as Array<{ body: string; clientCert: string | null; records: number }>,
  answers: [] as string[],
  registered: new Map<string, number>(),
  waitSeconds: "0",
};

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (n) => n === "RegistroFactura",
});

function answerFor(body: string): string {
  const doc = parser.parse(body);
  const reg = doc.Envelope.Body.RegFactuSistemaFacturacion;
  const header = reg.Cabecera.ObligadoEmision;
  let anyBad = false;
  let anyGood = false;
  const lines = (reg.RegistroFactura as Array<Record<string, Record<string, Record<string, string>>>>).map(
    (r) => {
      const alta = r.RegistroAlta;
      const op = alta ? "Alta" : "Anulacion";
      const id = alta
        ? alta.IDFactura
        : {
            IDEmisorFactura: r.RegistroAnulacion!.IDFactura!.IDEmisorFacturaAnulada,
            NumSerieFactura: r.RegistroAnulacion!.IDFactura!.NumSerieFacturaAnulada,
            FechaExpedicionFactura: r.RegistroAnulacion!.IDFactura!.FechaExpedicionFacturaAnulada,
          };
      const key = `${id!.IDEmisorFactura}|${id!.NumSerieFactura}|${op}`;
      let state = "Correcto";
      let error = "";
      if (aeat.registered.has(key)) {
        state = "Incorrecto";
        error = `<sfR:CodigoErrorRegistro>3000</sfR:CodigoErrorRegistro><sfR:DescripcionErrorRegistro>Registro de facturación duplicado.</sfR:DescripcionErrorRegistro><sfR:RegistroDuplicado><sf:IdPeticionRegistroDuplicado>20261124000001</sf:IdPeticionRegistroDuplicado><sf:EstadoRegistroDuplicado>Correcta</sf:EstadoRegistroDuplicado></sfR:RegistroDuplicado>`;
      } else if (aeat.mode === "reject_one" && id!.NumSerieFactura === aeat.rejectNumber) {
        state = "Incorrecto";
        error = `<sfR:CodigoErrorRegistro>1100</sfR:CodigoErrorRegistro><sfR:DescripcionErrorRegistro>Valor o tipo incorrecto del campo: ImporteTotal</sfR:DescripcionErrorRegistro>`;
      } else aeat.registered.set(key, (aeat.registered.get(key) ?? 0) + 1);
      if (state === "Correcto") anyGood = true;
      else anyBad = true;
      return `<sfR:RespuestaLinea><sfR:IDFactura><sf:IDEmisorFactura>${id!.IDEmisorFactura}</sf:IDEmisorFactura><sf:NumSerieFactura>${id!.NumSerieFactura}</sf:NumSerieFactura><sf:FechaExpedicionFactura>${id!.FechaExpedicionFactura}</sf:FechaExpedicionFactura></sfR:IDFactura><sfR:Operacion><sf:TipoOperacion>${op}</sf:TipoOperacion></sfR:Operacion><sfR:EstadoRegistro>${state}</sfR:EstadoRegistro>${error}</sfR:RespuestaLinea>`;
    },
  );
  const estado = anyBad ? (anyGood ? "ParcialmenteCorrecto" : "Incorrecto") : "Correcto";
  return `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Header/><env:Body><sfR:RespuestaRegFactuSistemaFacturacion xmlns:sfR="https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd" xmlns:sf="https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd">${anyGood ? "<sfR:CSV>A-TEST0123456789</sfR:CSV>" : ""}<sfR:Cabecera><sf:ObligadoEmision><sf:NombreRazon>${header.NombreRazon}</sf:NombreRazon><sf:NIF>${header.NIF}</sf:NIF></sf:ObligadoEmision></sfR:Cabecera><sfR:TiempoEsperaEnvio>${aeat.waitSeconds}</sfR:TiempoEsperaEnvio><sfR:EstadoEnvio>${estado}</sfR:EstadoEnvio>${lines.join("")}</sfR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>`;
}

/** The RegFactuSistemaFacturacion inside a SOAP request, as a standalone document (for xmllint). */
function innerDocument(envelope: string): string {
  const start = envelope.indexOf("<sum:RegFactuSistemaFacturacion");
  const end =
    envelope.indexOf("</sum:RegFactuSistemaFacturacion>") + "</sum:RegFactuSistemaFacturacion>".length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${envelope.slice(start, end)}\n`;
}

function xmllint(xml: string, schema: string, name: string) {
  const file = join(dir, name);
  writeFileSync(file, xml);
  return spawnSync(
    "xmllint",
    ["--nonet", "--noout", "--schema", fixturePath("verifactu", "xsd", schema), file],
    {
      env: { ...process.env, XML_CATALOG_FILES: fixturePath("verifactu", "xsd", "catalog.xml") },
      encoding: "utf8",
    },
  );
}

let server: Server;
let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  makeCertificates();
  server = createServer(
    {
      key: readFileSync(join(dir, "server.key")),
      cert: readFileSync(join(dir, "server.pem")),
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        aeat.requests.push({
          body,
          clientCert: peer?.subject?.CN ? String(peer.subject.CN) : null,
          records: body.split("<sum:RegistroFactura>").length - 1,
        });
        if (aeat.mode === "timeout") return; // never answers
        if (aeat.mode === "fault") {
          res.writeHead(500, { "content-type": "text/xml" });
          res.end(
            `<env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body><env:Fault><faultcode>env:Server</faultcode><faultstring>Codigo[-1].Error interno en el servidor</faultstring></env:Fault></env:Body></env:Envelope>`,
          );
          return;
        }
        const answer = answerFor(body);
        aeat.answers.push(answer);
        res.writeHead(200, { "content-type": "text/xml; charset=UTF-8" });
        res.end(answer);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  env = {
    VERIFACTU_ENVIRONMENT: "test",
    VERIFACTU_ENDPOINT: `https://127.0.0.1:${(server.address() as AddressInfo).port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`,
    VERIFACTU_CERT_PATH: join(dir, "client.p12"),
    VERIFACTU_CERT_PASSWORD: "secreto",
    VERIFACTU_CA_PATH: join(dir, "server.pem"),
    VERIFACTU_BATCH_SIZE: "3",
    VERIFACTU_REQUEST_TIMEOUT_SECONDS: "1",
    VERIFACTU_LEASE_SECONDS: "2",
    VERIFACTU_RETRY_BASE_SECONDS: "1",
    VERIFACTU_SUBMISSION_INTERVAL_SECONDS: "1",
  };
  t = await createTestApp(env);
});

afterAll(async () => {
  await t?.close();
  server?.closeAllConnections();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  aeat.mode = "accept";
  aeat.requests = [];
  aeat.answers = [];
  aeat.waitSeconds = "0";
});

const run = async (companyId: string) =>
  expectStatus<{
    batches: Array<{ records: number; result: string; accepted: number; rejected: number; status: string }>;
  }>(
    await t.as(t.adminToken, {
      method: "POST",
      url: "/api/verifactu/queue/run",
      payload: { company_id: companyId },
    }),
    200,
    "queue run",
  );

const queue = async (companyId: string) =>
  expectStatus<{
    submission: { configured: boolean; batch_size: number };
    data: Array<Record<string, number | string | null>>;
  }>(
    await t.as(t.adminToken, { method: "GET", url: `/api/verifactu/queue?company_id=${companyId}` }),
    200,
    "queue",
  );

async function issue(companyId: string, customerId: string, n: number) {
  for (let i = 0; i < n; i++)
    await issuedSalesInvoice(t, companyId, customerId, [line("1", String(100 + i))]);
  return (await recordsOf(t, companyId)).data;
}

type Response = {
  attempt: number;
  outcome: string;
  code: string | null;
  message: string | null;
  csv: string | null;
};
const recordOf = async (api: TestApp, id: string) =>
  (await recordOfApi(api, id)) as RecordOut & { responses: Response[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("VeriFactu submission to the AEAT", () => {
  it("sends batches of at most the batch size in chain order over mutual TLS, valid against the XSDs, and stores each verdict", async () => {
    const fx = await verifactuFixture(t, { name: "Envíos Correctos, S.L." });
    const records = await issue(fx.companyId, fx.customer.id, 5);
    expect((await queue(fx.companyId)).data[0]).toMatchObject({ pendiente: 5, aceptado: 0 });

    const out = await run(fx.companyId);
    expect(out.batches.map((b) => [b.records, b.result, b.accepted, b.status])).toEqual([
      [3, "sent", 3, "Correcto"],
      [2, "sent", 2, "Correcto"],
    ]);
    expect(aeat.requests.map((r) => r.records)).toEqual([3, 2]);
    expect(aeat.requests.every((r) => r.clientCert === "B12345674")).toBe(true);
    // Chain order: the first batch holds sequences 1-3, the second 4-5.
    const sent = aeat.requests.map((r) =>
      [
        ...r.body.matchAll(
          /<sum1:IDFactura>\s*<sum1:IDEmisorFactura>[^<]*<\/sum1:IDEmisorFactura>\s*<sum1:NumSerieFactura>([^<]+)</g,
        ),
      ].map((m) => m[1]),
    );
    expect(sent.flat()).toEqual(records.map((r) => r.invoice_number));
    if (XMLLINT) {
      const check = xmllint(innerDocument(aeat.requests[0]!.body), "SuministroLR.xsd", "request.xml");
      expect(check.status, check.stderr).toBe(0);
      const answer = aeat.answers[0]!;
      const inner = answer.slice(answer.indexOf("<sfR:Respuesta"), answer.indexOf("</env:Body>"));
      const r = xmllint(
        `<?xml version="1.0" encoding="UTF-8"?>\n${inner}\n`,
        "RespuestaSuministro.xsd",
        "answer.xml",
      );
      expect(r.status, r.stderr).toBe(0);
    }

    const detail = await recordOf(t, records[0]!.id);
    expect(detail.submission).toMatchObject({ estado: "aceptado", attempts: 1 });
    expect(detail.responses).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "accepted", csv: "A-TEST0123456789" }),
    ]);
    expect((await queue(fx.companyId)).data[0]).toMatchObject({ pendiente: 0, enviando: 0, aceptado: 5 });
    // Nothing due: a second run sends nothing.
    expect((await run(fx.companyId)).batches).toEqual([]);
  });

  it("stores a rejected record with the AEAT's code and description; the others of its batch are accepted", async () => {
    const fx = await verifactuFixture(t, { name: "Envío Parcial, S.L." });
    const records = await issue(fx.companyId, fx.customer.id, 3);
    aeat.mode = "reject_one";
    aeat.rejectNumber = records[1]!.invoice_number;
    const out = await run(fx.companyId);
    expect(out.batches).toEqual([
      expect.objectContaining({ records: 3, accepted: 2, rejected: 1, status: "ParcialmenteCorrecto" }),
    ]);
    const rejected = await recordOf(t, records[1]!.id);
    expect(rejected.submission).toMatchObject({ estado: "rechazado", code: "1100" });
    expect(rejected.responses).toEqual([
      expect.objectContaining({
        outcome: "rejected",
        code: "1100",
        message: expect.stringContaining("ImporteTotal"),
      }),
    ]);
    expect((await recordOf(t, records[2]!.id)).submission).toMatchObject({ estado: "aceptado" });
    // A rejection is final: the next run does not send it again.
    expect((await run(fx.companyId)).batches).toEqual([]);
  });

  it("retries after a timeout and a SOAP fault with an exponential backoff, then stores the acceptance", async () => {
    const fx = await verifactuFixture(t, { name: "Envío Reintentado, S.L." });
    const records = await issue(fx.companyId, fx.customer.id, 2);
    aeat.mode = "timeout";
    const first = await run(fx.companyId);
    expect(first.batches).toEqual([
      expect.objectContaining({ records: 2, result: "failed", status: "timeout" }),
    ]);
    const waiting = (await queue(fx.companyId)).data[0]!;
    expect(waiting).toMatchObject({ pendiente: 2, enviando: 0 });
    // Backoff: not sent again before its time.
    expect((await run(fx.companyId)).batches).toEqual([]);
    await sleep(1_100);
    aeat.mode = "fault";
    const second = await run(fx.companyId);
    expect(second.batches).toEqual([
      expect.objectContaining({ result: "failed", status: "fault:env:Server" }),
    ]);
    // The second failure waits twice as long (1 s x 2^1).
    const next = Date.parse(String((await queue(fx.companyId)).data[0]!.next_attempt_at));
    expect(next - Date.now()).toBeGreaterThan(1_000);
    await sleep(2_100);
    aeat.mode = "accept";
    expect((await run(fx.companyId)).batches).toEqual([
      expect.objectContaining({ result: "sent", accepted: 2 }),
    ]);
    const detail = await recordOf(t, records[0]!.id);
    expect(detail.submission).toMatchObject({ estado: "aceptado", attempts: 3 });
    expect(detail.responses.map((r) => [r.attempt, r.outcome, r.code])).toEqual([
      [1, "failed", "timeout"],
      [2, "failed", "fault:env:Server"],
      [3, "accepted", null],
    ]);
  });

  it("loses nothing and registers nothing twice when the worker dies mid-batch", async () => {
    const fx = await verifactuFixture(t, { name: "Envío Interrumpido, S.L." });
    const records = await issue(fx.companyId, fx.customer.id, 2);
    const config = loadConfig({ JWT_SECRET: "x".repeat(40), ...env }).verifactu.submission;
    const deps = { db: t.db, config, post: httpsSoapPost(config) };
    // The worker claims the batch, the AEAT receives and registers it, and the worker dies before
    // storing the answer: the rows stay leased to that batch.
    const claim = await claimNextBatch(deps, { companyIds: [fx.companyId] });
    expect(claim?.rows.map((r) => r.sequence)).toEqual([1, 2]);
    const batchRecords = await findRecordsByIds(
      t.db,
      claim!.rows.map((r) => r.recordId),
    );
    await deps.post(submissionEnvelope(batchRecords.sort((a, b) => a.sequence - b.sequence)));
    expect((await queue(fx.companyId)).data[0]).toMatchObject({ enviando: 2, pendiente: 0 });
    // While the lease lives, nobody else sends them.
    expect((await run(fx.companyId)).batches).toEqual([]);
    await sleep(2_100);
    const out = await run(fx.companyId);
    expect(out.batches).toEqual([expect.objectContaining({ records: 2, result: "sent", accepted: 2 })]);
    for (const r of records) expect(aeat.registered.get(`${r.issuer_nif}|${r.invoice_number}|Alta`)).toBe(1);
    const detail = await recordOf(t, records[0]!.id);
    expect(detail.submission).toMatchObject({ estado: "aceptado", attempts: 2 });
    expect(detail.responses).toEqual([
      expect.objectContaining({
        attempt: 2,
        outcome: "accepted",
        code: "3000",
        message: expect.stringContaining("already registered"),
      }),
    ]);
    // The dead worker's answer, arriving late, changes nothing: the rows are no longer its batch's.
    const late = await settleBatch(t.db, claim!.batchId, [
      {
        recordId: records[0]!.id,
        estado: "rechazado",
        outcome: "rejected",
        code: "9999",
        message: "late",
        csv: null,
      },
    ]);
    expect(late.size).toBe(0);
    expect((await recordOf(t, records[0]!.id)).submission).toMatchObject({ estado: "aceptado" });
    expect((await runSubmission(deps, { companyIds: [fx.companyId] })).length).toBe(0);
  });

  it("runs on its interval in-process when enabled, and honours the AEAT's wait time", async () => {
    const fx = await verifactuFixture(t, { name: "Envío Periódico, S.L." });
    const config = loadConfig({ JWT_SECRET: "x".repeat(40), ...env }).verifactu.submission;
    aeat.waitSeconds = "60";
    const logs: unknown[] = [];
    const worker = startSubmissionWorker(
      { db: t.db, config, post: httpsSoapPost(config) },
      { info: (o) => logs.push(o), error: (o) => logs.push(o) },
    );
    try {
      const [record] = await issue(fx.companyId, fx.customer.id, 1);
      for (let i = 0; i < 40 && (await recordOf(t, record!.id)).submission?.estado !== "aceptado"; i++)
        await sleep(250);
      expect((await recordOf(t, record!.id)).submission).toMatchObject({ estado: "aceptado" });
      // TiempoEsperaEnvio 60: the next record waits (fewer than a full batch are pending).
      await issue(fx.companyId, fx.customer.id, 1);
      await sleep(1_500);
      const state = (await queue(fx.companyId)).data[0]!;
      expect(state).toMatchObject({ pendiente: 1, aceptado: 1 });
      expect(Date.parse(String(state.next_submission_at)) - Date.now()).toBeGreaterThan(50_000);
    } finally {
      await worker.stop();
    }
  });

  it("needs verifactu:leer to see the queue and verifactu:editar to run it; another company is a 404", async () => {
    const fx = await verifactuFixture(t, { name: "Cola Ajena, S.L." });
    const reader = await t.userWith(["verifactu:leer"]);
    expect((await t.as(reader.token, { method: "GET", url: "/api/verifactu/queue" })).statusCode).toBe(200);
    expectProblem(
      await t.as(reader.token, { method: "POST", url: "/api/verifactu/queue/run", payload: {} }),
      403,
    );
    const other = await t.createCompany("Otra Empresa, S.L.", "A28015865");
    const restricted = await t.userWith(["verifactu:leer", "verifactu:editar"], { companyId: other });
    expectProblem(
      await t.as(restricted.token, { method: "GET", url: `/api/verifactu/queue?company_id=${fx.companyId}` }),
      404,
    );
    expectProblem(
      await t.as(restricted.token, {
        method: "POST",
        url: "/api/verifactu/queue/run",
        payload: { company_id: fx.companyId },
      }),
      404,
    );
    const own = await t.as(restricted.token, { method: "GET", url: "/api/verifactu/queue" });
    expect(own.json().data.every((r: { company_id: string }) => r.company_id === other)).toBe(true);
  });
});

describe("VeriFactu submission without a certificate", () => {
  it("refuses a run (409) and shows the queue as not configured", async () => {
    const bare = await createTestApp({});
    try {
      const res = await bare.as(bare.adminToken, {
        method: "POST",
        url: "/api/verifactu/queue/run",
        payload: {},
      });
      expectProblem(res, 409);
      const q = await bare.as(bare.adminToken, { method: "GET", url: "/api/verifactu/queue" });
      expect(q.json().submission).toMatchObject({ enabled: false, configured: false });
    } finally {
      await bare.close();
    }
  });
});
