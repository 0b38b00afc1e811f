import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { parseBc3 } from "./parse.js";
import type { Bc3Budget, Bc3Node, ParseResult } from "./types.js";
import { writeBc3 } from "./write.js";

// Hand-written Presto-like export. {CS} is the charset label, {EURO} a text only ANSI can carry.
const SAMPLE = String.raw`~V|SOFT S.A.|FIEBDC-3/2016|Presto 24.01|Cabecera\Rótulo\|{CS}|Presupuesto de prueba|
~K|\2\2\3\2\2\2\2\EUR\|0|
~C|OBRA##||Reforma de vivienda en Logroño|31234.5|010124|0|
~D|OBRA##|01#\1\1\02#\\\|
~C|01#||Demoliciones y albañilería|4567.891||0|
~D|01#|01.01\1\99\01.02\2\2.5\01.03#\\1\|
~C|01.01\DEM-TAB|m2|Demolición de tabique, nº 2, façana|12.3456|010124|0|
~T|01.01|Demolición de tabique de ladrillo hueco doble.
Incluye retirada de escombros a pie de carga y limpieza.{EURO}|
~M|01#\01.01|1\1\|26.01|\Planta baja\\\\\1\Subtotal\\\\\\Salón\2\3.5\2.5\\\Cocina\1\4\\2.6\\Hueco puerta\-1\0.9\\2.1\|
~C|01.02|ud|Retirada de sanitarios y accesorios|35||0|
~C|01.03#||Cerrajería|0||0|
~D|01.03#|01.03.01\1\3\|
~C|01.03.01|m|Barandilla de acero, cigüeñal|0||0|
~D|01.03.01|MO001\\0.5\MQ001\2\0.125\
MT001\\12.5\%CI\\0.03\|
~C|MO001|h|Oficial 1ª cerrajero|21.5||1|
~C|MQ001|h|Grúa autopropulsada|45||2|
~C|MT001|kg|Acero S275JR galvanizado en caliente|1.234||3|
~C|%CI|%|Costes indirectos|1||0|
~C|02#||Pintura y señalización|1234||0|
~D|02#|02.01\\\02.02\\7.25\|
~C|02.01|m2|Pintura plástica, pingüino blanco|8.5||0|
~M|02#\02.01|2\1\|0|\Paredes\2\10\\2.7\\Techo\\10\4.5\|
~C|02.02|ud|Señal de evacuación homologada|24.99||0|
~T|02.02|Señal fotoluminiscente.|
~L|02.02|ignored|
~X|02.02|ignored\too|
~E|ignored|
`;

const sample = (charset: "850" | "437" | "ANSI", euro = "", eol = "\r\n") =>
  SAMPLE.replace("{CS}", charset).replace("{EURO}", euro).replace(/\n/g, eol);

const item = (over: Partial<Bc3Node> & Pick<Bc3Node, "code" | "summary">): Bc3Node => ({
  kind: "item",
  unit: "",
  longText: "",
  quantity: "1.000",
  unitPrice: "0.0000",
  measurements: [],
  decomposition: [],
  children: [],
  ...over,
});
const m = (
  label: string,
  units: string | null,
  length: string | null,
  width: string | null,
  height: string | null,
) => ({
  label,
  units,
  length,
  width,
  height,
});

const expected = (charset: "850" | "437" | "ANSI", euro = ""): Bc3Budget => ({
  code: "OBRA",
  name: "Reforma de vivienda en Logroño",
  charset,
  root: {
    code: "OBRA",
    summary: "Reforma de vivienda en Logroño",
    children: [
      item({
        code: "01",
        kind: "chapter",
        summary: "Demoliciones y albañilería",
        unitPrice: "4567.8910",
        children: [
          item({
            code: "01.01",
            unit: "m2",
            summary: "Demolición de tabique, nº 2, façana",
            longText: `Demolición de tabique de ladrillo hueco doble.\nIncluye retirada de escombros a pie de carga y limpieza.${euro}`,
            quantity: "26.010",
            // ~K declares 2 price decimals (DC): the ~C price 12.3456 is rounded as the program shows it.
            unitPrice: "12.3500",
            measurements: [
              m("Planta baja", null, null, null, null),
              m("Salón", "2", "3.5", "2.5", null),
              m("Cocina", "1", "4", null, "2.6"),
              m("Hueco puerta", "-1", "0.9", null, "2.1"),
            ],
          }),
          item({
            code: "01.02",
            unit: "ud",
            summary: "Retirada de sanitarios y accesorios",
            quantity: "5.000",
            unitPrice: "35.0000",
          }),
          item({
            code: "01.03",
            kind: "chapter",
            summary: "Cerrajería",
            children: [
              item({
                code: "01.03.01",
                unit: "m",
                summary: "Barandilla de acero, cigüeñal",
                quantity: "3.000",
                // The decomposition prevails over the ~C price (0): 0.5 x 21.50 + 0.25 x 45 + ...
                unitPrice: "38.5500",
                decomposition: [
                  {
                    type: "labour",
                    code: "MO001",
                    unit: "h",
                    summary: "Oficial 1ª cerrajero",
                    yield: "0.5",
                    price: "21.5000",
                  },
                  {
                    type: "machinery",
                    code: "MQ001",
                    unit: "h",
                    summary: "Grúa autopropulsada",
                    yield: "0.25",
                    price: "45.0000",
                  },
                  {
                    type: "material",
                    code: "MT001",
                    unit: "kg",
                    summary: "Acero S275JR galvanizado en caliente",
                    yield: "12.5",
                    price: "1.2340",
                  },
                  {
                    type: "other",
                    code: "%CI",
                    unit: "%",
                    summary: "Costes indirectos",
                    yield: "0.03",
                    price: "1.0000",
                  },
                ],
              }),
            ],
          }),
        ],
      }),
      item({
        code: "02",
        kind: "chapter",
        summary: "Pintura y señalización",
        unitPrice: "1234.0000",
        children: [
          item({
            code: "02.01",
            unit: "m2",
            summary: "Pintura plástica, pingüino blanco",
            quantity: "99.000",
            unitPrice: "8.5000",
            measurements: [m("Paredes", "2", "10", null, "2.7"), m("Techo", null, "10", "4.5", null)],
          }),
          item({
            code: "02.02",
            unit: "ud",
            summary: "Señal de evacuación homologada",
            longText: "Señal fotoluminiscente.",
            quantity: "7.250",
            unitPrice: "24.9900",
          }),
        ],
      }),
    ],
  },
});

const parsed = (result: ParseResult): Bc3Budget => {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.budget;
};
/** The tree the parser read, without its report (coefficients, declared price, warnings, counts). */
const budgetOf = (result: ParseResult): Bc3Budget => {
  const { code, name, charset, root } = parsed(result);
  return { code, name, charset, root };
};
const treeOnly = (b: Bc3Budget): Bc3Budget => ({
  code: b.code,
  name: b.name,
  charset: b.charset,
  root: b.root,
});

describe("parseBc3 on a hand-written sample", () => {
  it("reads a cp850 file: tree, quantities, prices, decomposition and accented texts", () => {
    const result = parseBc3(iconv.encode(sample("850"), "cp850"));
    expect(budgetOf(result)).toEqual(expected("850"));
  });

  it("reads a windows-1252 (ANSI) file, including the euro sign", () => {
    const result = parseBc3(iconv.encode(sample("ANSI", " Precio en €."), "win1252"));
    expect(budgetOf(result)).toEqual(expected("ANSI", " Precio en €."));
  });

  it("reads a cp437 file with LF-only line endings", () => {
    const result = parseBc3(iconv.encode(sample("437", "", "\n"), "cp437"));
    expect(budgetOf(result)).toEqual(expected("437"));
  });

  it("treats an empty charset field as 850", () => {
    const result = parseBc3(iconv.encode(sample("850").replace("|850|", "||"), "cp850"));
    expect(budgetOf(result)).toEqual(expected("850"));
  });

  it("decodes by the declared charset, not by guess: cp850 bytes read as ANSI differ", () => {
    const bytes = iconv.encode(sample("850"), "cp850");
    const mislabeled = budgetOf(
      parseBc3(Buffer.from(bytes.toString("latin1").replace("|850|", "|ANSI|"), "latin1")),
    );
    expect(mislabeled.name).not.toBe("Reforma de vivienda en Logroño");
  });

  it("handles ~M without parent, ~N (append lines), a repeated ~M (replace) and ~Y (append children)", () => {
    const text = [
      "~V||FIEBDC-3/2016|||ANSI||",
      "~C|R##||Root|||0|",
      "~D|R##|A\\\\\\C\\\\\\|",
      "~Y|R##|B\\\\2\\|",
      "~C|A|u|Item A|2||0|",
      "~C|B|u|Item B|3||0|",
      "~C|C|u|Item C|3||0|",
      "~M|A||0|\\x\\4\\\\\\\\|",
      "~N|A||0|\\y\\1.5\\\\\\\\|",
      "~M|R##\\C||0|\\old\\7\\\\\\\\|",
      "~M|R##\\C||0|\\new\\8\\\\\\\\|",
    ].join("\r\n");
    const root = budgetOf(parseBc3(Buffer.from(text, "latin1"))).root;
    expect(root.children.map((c) => [c.code, c.quantity, c.measurements.map((m) => m.label).join()])).toEqual(
      [
        ["A", "5.500", "x,y"],
        ["C", "8.000", "new"],
        ["B", "2.000", ""],
      ],
    );
  });

  it("survives a rewrite: parse -> write -> parse gives the same budget", () => {
    // The written ~K carries the file's decimals, so the re-read rounds as the first read did.
    const first = parsed(parseBc3(iconv.encode(sample("ANSI", " 5 €"), "win1252")));
    expect(budgetOf(parseBc3(writeBc3(first)))).toEqual(treeOnly(first));
    // cp850 has no euro sign: iconv-lite writes "?" instead.
    const second = budgetOf(parseBc3(writeBc3(first, { charset: "850" })));
    expect(second.root.children[0].children[0].longText.endsWith(" 5 ?")).toBe(true);
    const plain = parsed(parseBc3(iconv.encode(sample("850"), "cp850")));
    expect(budgetOf(parseBc3(writeBc3(plain, { charset: "850" })))).toEqual(treeOnly(plain));
  });
});
