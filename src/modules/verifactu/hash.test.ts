import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import {
  aeatDate,
  aeatTimestamp,
  altaHashInput,
  anulacionHashInput,
  eventHashInput,
  huella,
} from "./hash.js";

interface Vector {
  name: string;
  kind: "RegistroAlta" | "RegistroAnulacion";
  input: string;
  expected: string;
}

const vectors: Vector[] = JSON.parse(
  readFileSync(fixturePath("verifactu", "hash-vectors.json"), "utf8"),
).vectors;

/** The vector's input split into its fields, values kept exactly as written. */
function fieldsOf(input: string): Record<string, string> {
  return Object.fromEntries(
    input.split("&").map((pair) => {
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

describe("VeriFactu huella: the 35 public vectors, byte-exact", () => {
  it("holds 35 vectors", () => {
    expect(vectors).toHaveLength(35);
  });

  it.each(vectors.map((v, i) => [i + 1, v.name, v] as const))("vector %i: %s", (_i, _name, v) => {
    const f = fieldsOf(v.input);
    const input =
      v.kind === "RegistroAlta"
        ? altaHashInput({
            issuerNif: f.IDEmisorFactura,
            invoiceNumber: f.NumSerieFactura,
            issueDate: f.FechaExpedicionFactura,
            invoiceType: f.TipoFactura,
            cuotaTotal: f.CuotaTotal,
            importeTotal: f.ImporteTotal,
            previousHash: f.Huella,
            generatedAt: f.FechaHoraHusoGenRegistro,
          })
        : anulacionHashInput({
            issuerNif: f.IDEmisorFacturaAnulada,
            invoiceNumber: f.NumSerieFacturaAnulada,
            issueDate: f.FechaExpedicionFacturaAnulada,
            previousHash: f.Huella,
            generatedAt: f.FechaHoraHusoGenRegistro,
          });
    expect(input).toBe(v.input);
    expect(huella(input)).toBe(v.expected);
  });

  it("chains the AEAT example: alta, next alta, then its cancellation", () => {
    const first = huella(
      altaHashInput({
        issuerNif: "89890001K",
        invoiceNumber: "12345678/G33",
        issueDate: aeatDate("2024-01-01"),
        invoiceType: "F1",
        cuotaTotal: "12.35",
        importeTotal: "123.45",
        previousHash: "",
        generatedAt: "2024-01-01T19:20:30+01:00",
      }),
    );
    expect(first).toBe("3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60");
    const second = huella(
      altaHashInput({
        issuerNif: "89890001K",
        invoiceNumber: "12345679/G34",
        issueDate: "01-01-2024",
        invoiceType: "F1",
        cuotaTotal: "12.35",
        importeTotal: "123.45",
        previousHash: first,
        generatedAt: "2024-01-01T19:20:35+01:00",
      }),
    );
    expect(second).toBe("F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97");
    const cancellation = huella(
      anulacionHashInput({
        issuerNif: "89890001K",
        invoiceNumber: "12345679/G34",
        issueDate: "01-01-2024",
        previousHash: second,
        generatedAt: "2024-01-01T19:20:40+01:00",
      }),
    );
    expect(cancellation).toBe("177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68");
  });

  it("hashes amounts as written: 21.4 and 21.40 differ", () => {
    const base = {
      issuerNif: "B72877814",
      invoiceNumber: "X-1",
      issueDate: "04-11-2024",
      invoiceType: "F1",
      importeTotal: "131.40",
      previousHash: "",
      generatedAt: "2024-11-04T12:36:39+01:00",
    };
    expect(huella(altaHashInput({ ...base, cuotaTotal: "21.4" }))).not.toBe(
      huella(altaHashInput({ ...base, cuotaTotal: "21.40" })),
    );
  });
});

describe("event hash input", () => {
  it("lists the event's fields in order, the previous event's hash empty for the first", () => {
    const input = eventHashInput({
      producerNif: "B12345674",
      systemId: "CU",
      version: "0.1.0",
      installation: "0001",
      issuerNif: "89890001K",
      eventType: "03",
      previousHash: "",
      generatedAt: "2026-03-10T10:00:00+01:00",
    });
    expect(input).toBe(
      "NIF=B12345674&IdSistemaInformatico=CU&Version=0.1.0&NumeroInstalacion=0001&NIFObligadoEmision=89890001K&TipoEvento=03&HuellaEvento=&FechaHoraHusoGenEvento=2026-03-10T10:00:00+01:00",
    );
    expect(huella(input)).toMatch(/^[0-9A-F]{64}$/);
  });
});

describe("dates and timestamps as the AEAT writes them", () => {
  it("turns yyyy-mm-dd into dd-mm-yyyy", () => {
    expect(aeatDate("2026-03-09")).toBe("09-03-2026");
  });

  it("writes Madrid local time with its offset, winter and summer", () => {
    expect(aeatTimestamp(new Date("2024-01-01T18:20:30.900Z"))).toBe("2024-01-01T19:20:30+01:00");
    expect(aeatTimestamp(new Date("2025-06-01T08:20:30Z"))).toBe("2025-06-01T10:20:30+02:00");
    expect(aeatTimestamp(new Date("2025-06-01T08:20:30Z"), "Atlantic/Canary")).toBe(
      "2025-06-01T09:20:30+01:00",
    );
    expect(aeatTimestamp(new Date("2025-06-01T08:20:30Z"), "UTC")).toBe("2025-06-01T08:20:30+00:00");
  });
});
