import { describe, expect, it } from "vitest";
import { parseBc3 } from "./parse.js";
import type { Bc3Budget, Bc3Charset, Bc3Decomposition, Bc3Node } from "./types.js";
import { sanitizeCode, sanitizeText, writeBc3 } from "./write.js";

const roundTrip = (budget: Bc3Budget, charset: Bc3Charset) => {
  const result = parseBc3(writeBc3(budget, { charset }));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const { code, name, root } = result.budget;
  return { code, name, charset: result.budget.charset, root };
};

const node = (over: Partial<Bc3Node> & Pick<Bc3Node, "code">): Bc3Node => ({
  kind: "item",
  unit: "",
  summary: "",
  longText: "",
  quantity: "1.000",
  unitPrice: "0.0000",
  measurements: [],
  decomposition: [],
  children: [],
  ...over,
});
const labour: Bc3Decomposition = {
  type: "labour",
  code: "MO.OF1",
  unit: "h",
  summary: "Oficial 1ª albañilería",
  yield: "0.35",
  price: "21.5000",
};
const budget = (charset: Bc3Charset): Bc3Budget => ({
  code: "P-2024",
  name: "Rehabilitación de fachada en Logroño",
  charset,
  root: {
    code: "P-2024",
    summary: "Rehabilitación de fachada en Logroño",
    children: [
      node({
        code: "C01",
        kind: "chapter",
        summary: "Andamios y señalización",
        unitPrice: "1500.0000",
        children: [
          node({
            code: "C01.01",
            unit: "m2",
            summary: "Andamio tubular, montaje y desmontaje",
            longText: "Andamio europeo homologado.\nIncluye redes, rodapiés y pingüino de seguridad.",
            quantity: "133.400",
            unitPrice: "7.8500",
            measurements: [
              { label: "Fachada principal", units: "1", length: "22", width: null, height: "6.2" },
              { label: "Patio (façana)", units: "2", length: "-1.5", width: "1.2", height: null },
              { label: "Nota: sin medición", units: null, length: null, width: null, height: null },
              { label: "Medianera", units: null, length: "0.6", width: null, height: null },
            ],
          }),
          node({
            code: "C01.02",
            kind: "chapter",
            summary: "Señalización nº 2",
            children: [
              node({ code: "C01.02.01", unit: "ud", summary: "Cartel de obra", unitPrice: "120.0000" }),
            ],
          }),
        ],
      }),
      node({
        code: "C02",
        kind: "chapter",
        summary: "Revestimientos",
        quantity: "2.000",
        children: [
          node({
            code: "C02.01",
            unit: "m2",
            summary: "Mortero monocapa, acabado raspado",
            quantity: "340.250",
            // What its decomposition gives, each line to 4 decimals (the written ~K DI):
            // 7.5250 + 0.0388 + 9.0640 = 16.6278, plus 2 % of it (0.3326) for %MA.
            unitPrice: "16.9604",
            decomposition: [
              labour,
              {
                type: "machinery",
                code: "MQ.MEZ",
                unit: "h",
                summary: "Mezcladora",
                yield: "0.0125",
                price: "3.1000",
              },
              {
                type: "material",
                code: "MT.MONO",
                unit: "kg",
                summary: "Mortero monocapa",
                yield: "22",
                price: "0.4120",
              },
              {
                type: "other",
                code: "%MA",
                unit: "%",
                summary: "Medios auxiliares",
                yield: "0.02",
                price: "1.0000",
              },
            ],
          }),
          node({
            code: "C02.02",
            unit: "m2",
            summary: "Pintura pétrea",
            quantity: "0.000",
            unitPrice: "7.5250",
            decomposition: [labour],
          }),
        ],
      }),
    ],
  },
});

describe("writeBc3", () => {
  it("writes a standard ~V/~K header with CRLF line endings, ANSI by default", () => {
    const text = writeBc3(budget("ANSI")).toString("latin1");
    expect(
      text.startsWith(
        "~V|CUADRA|FIEBDC-3/2016|Cuadra|\\|ANSI||\r\n~K|\\2\\3\\6\\4\\4\\4\\2\\EUR\\|\\\\\\\\|\\2\\\\6\\6\\\\4\\4\\4\\\\2\\3\\EUR\\||\r\n",
      ),
    ).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(text).toContain("~C|P-2024##||Rehabilitaci\xf3n de fachada en Logro\xf1o|");
    expect(text).toContain("~D|P-2024##|C01#\\1\\1.000\\C02#\\1\\2.000\\|");
    expect(text).toContain("~C|MO.OF1|h|Oficial 1\xaa alba\xf1iler\xeda|21.5000||1|");
    expect(text).toContain("~M|C01#\\C01.01|1\\1\\|133.400|\\Fachada principal\\1\\22\\\\6.2\\");
    expect(text.split("~C|MO.OF1|")).toHaveLength(2); // a shared component is defined once
  });

  it.each(["ANSI", "850", "437"] as const)("round-trips a budget in charset %s", (charset) => {
    expect(roundTrip(budget(charset), charset)).toEqual(budget(charset));
  });

  it("encodes cp850 bytes for accented letters", () => {
    const bytes = writeBc3(budget("850"), { charset: "850" });
    expect(bytes.includes(Buffer.from([0x4c, 0x6f, 0x67, 0x72, 0x6f, 0xa4, 0x6f]))).toBe(true); // "Logro" ñ(0xA4) "o"
  });

  it("replaces the separators | \\ ~ in texts and codes", () => {
    expect(sanitizeText(" a|b\\c~d \r\n e ")).toBe("a/b/c-d   e");
    expect(sanitizeText("line 1|\r\nline~2\r", true)).toBe("line 1/\nline-2");
    expect(sanitizeCode(" C|1## ")).toBe("C/1");
    const dirty = budget("ANSI");
    dirty.root.children[0].summary = "Andamios | vallas \\ señales ~ conos";
    dirty.root.children[0].children[0].longText = "~Texto\r\ncon | barras \\";
    const parsed = roundTrip(dirty, "ANSI");
    expect(parsed.root.children[0].summary).toBe("Andamios / vallas / señales - conos");
    expect(parsed.root.children[0].children[0].longText).toBe("-Texto\ncon / barras /");
  });
});
