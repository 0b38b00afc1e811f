import { aeatDate } from "./hash.js";
import type { RecordRow } from "./repository.js";
import type { RecordDetails } from "./tables.js";

/**
 * The AEAT XML of VeriFactu records (SuministroLR.xsd / SuministroInformacion.xsd, version 1.0):
 * RegistroAlta and RegistroAnulacion inside RegFactuSistemaFacturacion, every value written exactly
 * as it was hashed.
 */

export const NS_LR =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd";
export const NS_SI =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd";

/** The most records one RegFactuSistemaFacturacion may hold (SuministroLR.xsd maxOccurs). */
export const MAX_RECORDS_PER_FILE = 1000;

const escapeXml = (v: string) =>
  v
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

type Node = [string, Node[] | string | null | undefined];

function render(nodes: Node[], indent: string): string {
  return nodes
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([name, v]) =>
      typeof v === "string"
        ? `${indent}<sum1:${name}>${escapeXml(v)}</sum1:${name}>`
        : `${indent}<sum1:${name}>\n${render(v as Node[], `${indent}  `)}\n${indent}</sum1:${name}>`,
    )
    .join("\n");
}

function chaining(r: RecordRow): Node {
  const prev = r.details.previous;
  if (!prev) return ["Encadenamiento", [["PrimerRegistro", "S"]]];
  return [
    "Encadenamiento",
    [
      [
        "RegistroAnterior",
        [
          ["IDEmisorFactura", prev.issuerNif],
          ["NumSerieFactura", prev.invoiceNumber],
          ["FechaExpedicionFactura", prev.issueDate],
          ["Huella", r.previousHash],
        ],
      ],
    ],
  ];
}

function software(d: RecordDetails): Node {
  const s = d.software;
  return [
    "SistemaInformatico",
    [
      ["NombreRazon", s.producerName],
      ["NIF", s.producerNif],
      ["NombreSistemaInformatico", s.name],
      ["IdSistemaInformatico", s.id],
      ["Version", s.version],
      ["NumeroInstalacion", s.installation],
      ["TipoUsoPosibleSoloVerifactu", "S"],
      ["TipoUsoPosibleMultiOT", "S"],
      ["IndicadorMultiplesOT", "S"],
    ],
  ];
}

function recipient(d: RecordDetails): Node | null {
  const r = d.recipient;
  if (!r) return null;
  const id: Node = r.nif
    ? ["NIF", r.nif]
    : [
        "IDOtro",
        [
          ["CodigoPais", r.country],
          ["IDType", r.idType],
          ["ID", r.id],
        ],
      ];
  return ["Destinatarios", [["IDDestinatario", [["NombreRazon", r.name], id]]]];
}

function altaNodes(r: RecordRow): Node[] {
  const d = r.details;
  const rect = d.rectification;
  return [
    ["IDVersion", "1.0"],
    [
      "IDFactura",
      [
        ["IDEmisorFactura", r.issuerNif],
        ["NumSerieFactura", r.invoiceNumber],
        ["FechaExpedicionFactura", aeatDate(r.invoiceDate)],
      ],
    ],
    ["NombreRazonEmisor", d.issuerName],
    ["TipoFactura", r.invoiceType],
    ["TipoRectificativa", rect?.type],
    rect
      ? [
          "FacturasRectificadas",
          rect.corrected.map(
            (c): Node => [
              "IDFacturaRectificada",
              [
                ["IDEmisorFactura", r.issuerNif],
                ["NumSerieFactura", c.number],
                ["FechaExpedicionFactura", c.issueDate],
              ],
            ],
          ),
        ]
      : ["FacturasRectificadas", null],
    rect?.type === "S"
      ? [
          "ImporteRectificacion",
          [
            ["BaseRectificada", rect.base],
            ["CuotaRectificada", rect.vat],
            ["CuotaRecargoRectificado", rect.re],
          ],
        ]
      : ["ImporteRectificacion", null],
    ["FechaOperacion", d.operationDate],
    ["DescripcionOperacion", d.description],
    recipient(d) ?? ["Destinatarios", null],
    [
      "Desglose",
      (d.breakdown ?? []).map(
        (b): Node => [
          "DetalleDesglose",
          [
            ["Impuesto", "01"],
            ["ClaveRegimen", b.regime],
            ["CalificacionOperacion", b.qualification],
            ["OperacionExenta", b.exemption],
            ["TipoImpositivo", b.rate],
            ["BaseImponibleOimporteNoSujeto", b.base],
            ["CuotaRepercutida", b.vat],
            ["TipoRecargoEquivalencia", b.reRate],
            ["CuotaRecargoEquivalencia", b.re],
          ],
        ],
      ),
    ],
    ["CuotaTotal", r.cuotaTotal],
    ["ImporteTotal", r.importeTotal],
    chaining(r),
    software(d),
    ["FechaHoraHusoGenRegistro", r.generatedAt],
    ["TipoHuella", "01"],
    ["Huella", r.hash],
  ];
}

function anulacionNodes(r: RecordRow): Node[] {
  return [
    ["IDVersion", "1.0"],
    [
      "IDFactura",
      [
        ["IDEmisorFacturaAnulada", r.issuerNif],
        ["NumSerieFacturaAnulada", r.invoiceNumber],
        ["FechaExpedicionFacturaAnulada", aeatDate(r.invoiceDate)],
      ],
    ],
    chaining(r),
    software(r.details),
    ["FechaHoraHusoGenRegistro", r.generatedAt],
    ["TipoHuella", "01"],
    ["Huella", r.hash],
  ];
}

/** One record's element (sum1:RegistroAlta or sum1:RegistroAnulacion), indented. */
export function recordElement(r: RecordRow, indent = "      "): string {
  const name = r.recordType === "alta" ? "RegistroAlta" : "RegistroAnulacion";
  const body = render(r.recordType === "alta" ? altaNodes(r) : anulacionNodes(r), `${indent}  `);
  return `${indent}<sum1:${name}>\n${body}\n${indent}</sum1:${name}>`;
}

/** The RegFactuSistemaFacturacion element (no XML declaration), for files and SOAP bodies. */
export function suministroElement(
  issuer: { name: string; nif: string },
  records: RecordRow[],
  indent = "",
): string {
  if (records.length > MAX_RECORDS_PER_FILE)
    throw new Error(`at most ${MAX_RECORDS_PER_FILE} records per file`);
  const i = indent;
  return [
    `${i}<sum:RegFactuSistemaFacturacion xmlns:sum="${NS_LR}" xmlns:sum1="${NS_SI}">`,
    `${i}  <sum:Cabecera>`,
    `${i}    <sum1:ObligadoEmision>`,
    `${i}      <sum1:NombreRazon>${escapeXml(issuer.name)}</sum1:NombreRazon>`,
    `${i}      <sum1:NIF>${escapeXml(issuer.nif)}</sum1:NIF>`,
    `${i}    </sum1:ObligadoEmision>`,
    `${i}  </sum:Cabecera>`,
    ...records.map(
      (r) => `${i}  <sum:RegistroFactura>\n${recordElement(r, `${i}    `)}\n${i}  </sum:RegistroFactura>`,
    ),
    `${i}</sum:RegFactuSistemaFacturacion>`,
  ].join("\n");
}

/** A standalone XML file of records (GET .../xml and the export). */
export function suministroDocument(issuer: { name: string; nif: string }, records: RecordRow[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${suministroElement(issuer, records)}\n`;
}
