import { createHash } from "node:crypto";

/**
 * The VeriFactu fingerprint (huella, TipoHuella 01): SHA-256 over the UTF-8 bytes of `key=value`
 * pairs joined by `&`, uppercase hex (Orden HAC/1177/2024; AEAT "Detalle de las especificaciones
 * técnicas para generación de la huella"). Values are used exactly as written in the XML, never
 * escaped nor reformatted: `21.4` and `21.40` hash differently, so callers pass the strings they
 * write. Pure functions: no database, no clock.
 */

export interface AltaHashFields {
  /** IDEmisorFactura: the issuer's NIF. */
  issuerNif: string;
  /** NumSerieFactura: series and number as printed on the invoice. */
  invoiceNumber: string;
  /** FechaExpedicionFactura, dd-mm-yyyy. */
  issueDate: string;
  /** TipoFactura: F1, F2, R1-R5... */
  invoiceType: string;
  /** CuotaTotal as written. */
  cuotaTotal: string;
  /** ImporteTotal as written. */
  importeTotal: string;
  /** Huella of the previous record of the chain; "" for the first. */
  previousHash: string;
  /** FechaHoraHusoGenRegistro, ISO 8601 with offset. */
  generatedAt: string;
}

export interface AnulacionHashFields {
  issuerNif: string;
  invoiceNumber: string;
  /** dd-mm-yyyy. */
  issueDate: string;
  previousHash: string;
  generatedAt: string;
}

/** The event log (registro de eventos) of the system, chained like the invoice records. */
export interface EventHashFields {
  /** NIF of the software's producer (SistemaInformatico/NIF). */
  producerNif: string;
  /** IdSistemaInformatico. */
  systemId: string;
  /** Version of the software. */
  version: string;
  /** NumeroInstalacion. */
  installation: string;
  /** NIF of the issuer (ObligadoEmision). */
  issuerNif: string;
  /** TipoEvento (01-10, 90). */
  eventType: string;
  /** HuellaEvento of the previous event; "" for the first. */
  previousHash: string;
  /** FechaHoraHusoGenEvento, ISO 8601 with offset. */
  generatedAt: string;
}

const join = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${k}=${v}`).join("&");

export function altaHashInput(f: AltaHashFields): string {
  return join([
    ["IDEmisorFactura", f.issuerNif],
    ["NumSerieFactura", f.invoiceNumber],
    ["FechaExpedicionFactura", f.issueDate],
    ["TipoFactura", f.invoiceType],
    ["CuotaTotal", f.cuotaTotal],
    ["ImporteTotal", f.importeTotal],
    ["Huella", f.previousHash],
    ["FechaHoraHusoGenRegistro", f.generatedAt],
  ]);
}

export function anulacionHashInput(f: AnulacionHashFields): string {
  return join([
    ["IDEmisorFacturaAnulada", f.issuerNif],
    ["NumSerieFacturaAnulada", f.invoiceNumber],
    ["FechaExpedicionFacturaAnulada", f.issueDate],
    ["Huella", f.previousHash],
    ["FechaHoraHusoGenRegistro", f.generatedAt],
  ]);
}

export function eventHashInput(f: EventHashFields): string {
  return join([
    ["NIF", f.producerNif],
    ["IdSistemaInformatico", f.systemId],
    ["Version", f.version],
    ["NumeroInstalacion", f.installation],
    ["NIFObligadoEmision", f.issuerNif],
    ["TipoEvento", f.eventType],
    ["HuellaEvento", f.previousHash],
    ["FechaHoraHusoGenEvento", f.generatedAt],
  ]);
}

/** SHA-256 of the UTF-8 input, uppercase hex. */
export function huella(input: string): string {
  return createHash("sha256").update(input, "utf8").digest("hex").toUpperCase();
}

/** yyyy-mm-dd (how Cuadra stores dates) -> dd-mm-yyyy (how the AEAT writes them). */
export function aeatDate(isoDate: string): string {
  const [y, m, d] = isoDate.split("-");
  return `${d}-${m}-${y}`;
}

/** Minutes east of UTC of `zone` at `at` (e.g. +60 for Madrid in winter). */
function offsetMinutes(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The instant as the AEAT wants it (FechaHoraHusoGenRegistro): local time of `zone` to the second
 * with its offset, e.g. 2024-01-01T19:20:30+01:00.
 */
export function aeatTimestamp(at: Date, zone = "Europe/Madrid"): string {
  const offset = offsetMinutes(at, zone);
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
