import { XMLParser } from "fast-xml-parser";
import { aeatDate } from "../hash.js";
import type { RecordRow } from "../repository.js";
import { suministroElement } from "../xml.js";

/**
 * The SOAP 1.1 messages of the AEAT's VeriFactu service (SistemaFacturacion.wsdl, operation
 * RegFactuSistemaFacturacion, document/literal): the request wraps the same
 * RegFactuSistemaFacturacion the XML export writes; the answer is RespuestaRegFactuSistemaFacturacion
 * (RespuestaSuministro.xsd) or a SOAP Fault.
 */

export const NS_SOAP = "http://schemas.xmlsoap.org/soap/envelope/";

/** The request: the issuer (ObligadoEmision) and its records in chain order, at most 1,000. */
export function submissionEnvelope(records: RecordRow[]): string {
  const first = records[0];
  if (!first) throw new Error("a submission holds at least one record");
  const issuer = { name: first.details.issuerName, nif: first.issuerNif };
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<soapenv:Envelope xmlns:soapenv="${NS_SOAP}">`,
    `  <soapenv:Header/>`,
    `  <soapenv:Body>`,
    suministroElement(issuer, records, "    "),
    `  </soapenv:Body>`,
    `</soapenv:Envelope>`,
    "",
  ].join("\n");
}

/** EstadoRegistro of one line: Correcto, AceptadoConErrores or Incorrecto. */
export type LineState = "Correcto" | "AceptadoConErrores" | "Incorrecto";

export interface ResponseLine {
  invoiceNumber: string;
  /** dd-mm-yyyy, as sent. */
  issueDate: string;
  operation: "Alta" | "Anulacion";
  state: LineState;
  code: string | null;
  description: string | null;
  /** RegistroDuplicado: the AEAT already holds this record (sent before, e.g. by a dead worker). */
  duplicateOf: { requestId: string; state: string } | null;
}

export type SubmissionAnswer =
  | {
      kind: "response";
      /** EstadoEnvio: Correcto, ParcialmenteCorrecto or Incorrecto. */
      state: string;
      csv: string | null;
      /** TiempoEsperaEnvio in seconds: the wait before the issuer's next submission. */
      waitSeconds: number;
      lines: ResponseLine[];
    }
  | { kind: "fault"; code: string; message: string };

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === "RespuestaLinea",
});

type XmlNode = Record<string, unknown>;
const text = (v: unknown): string | null =>
  v === undefined || v === null || typeof v === "object" ? null : String(v);

/** Reads the AEAT's answer; anything that is neither a response nor a fault throws (a transport error). */
export function parseSubmissionAnswer(xml: string): SubmissionAnswer {
  let doc: XmlNode;
  try {
    doc = parser.parse(xml) as XmlNode;
  } catch (err) {
    throw new Error(`the answer is not XML: ${(err as Error).message}`);
  }
  const body = ((doc.Envelope as XmlNode | undefined)?.Body ?? {}) as XmlNode;
  const fault = body.Fault as XmlNode | undefined;
  if (fault)
    return {
      kind: "fault",
      code: text(fault.faultcode) ?? "soap:Fault",
      message: text(fault.faultstring) ?? "SOAP Fault without a faultstring",
    };
  const answer = body.RespuestaRegFactuSistemaFacturacion as XmlNode | undefined;
  if (!answer) throw new Error("the answer has no RespuestaRegFactuSistemaFacturacion nor Fault");
  const lines = ((answer.RespuestaLinea as XmlNode[] | undefined) ?? []).map((l): ResponseLine => {
    const id = (l.IDFactura ?? {}) as XmlNode;
    const duplicate = l.RegistroDuplicado as XmlNode | undefined;
    return {
      invoiceNumber: text(id.NumSerieFactura) ?? "",
      issueDate: text(id.FechaExpedicionFactura) ?? "",
      operation:
        text((l.Operacion as XmlNode | undefined)?.TipoOperacion) === "Anulacion" ? "Anulacion" : "Alta",
      state: (text(l.EstadoRegistro) ?? "Incorrecto") as LineState,
      code: text(l.CodigoErrorRegistro),
      description: text(l.DescripcionErrorRegistro),
      duplicateOf: duplicate
        ? {
            requestId: text(duplicate.IdPeticionRegistroDuplicado) ?? "",
            state: text(duplicate.EstadoRegistroDuplicado) ?? "",
          }
        : null,
    };
  });
  return {
    kind: "response",
    state: text(answer.EstadoEnvio) ?? "",
    csv: text(answer.CSV),
    waitSeconds: Number(text(answer.TiempoEsperaEnvio) ?? "0") || 0,
    lines,
  };
}

/** How a response line names its record: invoice number, issue date and operation. */
export function lineKey(invoiceNumber: string, issueDate: string, operation: "Alta" | "Anulacion") {
  return `${invoiceNumber}\u001f${issueDate}\u001f${operation}`;
}

export function recordKey(r: RecordRow): string {
  return lineKey(r.invoiceNumber, aeatDate(r.invoiceDate), r.recordType === "alta" ? "Alta" : "Anulacion");
}
