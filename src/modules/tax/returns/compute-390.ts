import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import type { RateBoxSum } from "./books-query.js";
import type { Boxes } from "./compute.js";
import { PAGE_02, PAGE_02B } from "./dr390.js";

/**
 * Modelo 390 from the year's 303s (tax-returns.md §2) in the boxes of the 2025 design (ADR 025).
 * The 303 adds every rate of a kind of purchase (and of intra-EU acquisitions) in one box; the 390
 * splits them by rate, so those boxes come from the year's books by rate and are checked against
 * the 303s they must add up to. Everything else is the sum of the 303 boxes.
 */

/** 390 compensation from the previous year (85): the accountant fills it. */
export const MANUAL_390 = ["85"] as const;

type Pair = [string, string];

/** 303 boxes that land in one 390 box whatever the rate. */
const DIRECT: Array<[string, string]> = [
  ["150", "700"],
  ["152", "701"],
  ["165", "667"],
  ["167", "668"],
  ["01", "01"],
  ["03", "02"],
  ["04", "03"],
  ["06", "04"],
  ["07", "05"],
  ["09", "06"],
  ["12", "27"],
  ["13", "28"],
  ["14", "29"],
  ["15", "30"],
  ["168", "35"],
  ["170", "36"],
  ["19", "599"],
  ["21", "600"],
  ["22", "601"],
  ["24", "602"],
  ["156", "41"],
  ["158", "42"],
  ["25", "43"],
  ["26", "44"],
  ["40", "639"],
  ["41", "62"],
  ["42", "61"],
  ["43", "63"],
  ["44", "522"],
];

/** 303 base and quota boxes the 390 splits by rate (intra-EU: goods and services apart). */
interface Split {
  /** What the kind is called on the form. */
  name: string;
  from: Pair;
  /** Only intra-EU services (true) or everything but them (false); undefined: both. */
  services?: boolean;
  /** VAT rate -> the 390's base and quota boxes. */
  to: Record<string, Pair>;
  /** The 390 boxes of the kind's total. */
  total?: Pair;
}

const SPLITS: Split[] = [
  { name: "Régimen ordinario", from: ["153", "155"], to: { "5": ["702", "703"], "7.5": ["669", "670"] } },
  {
    name: "Adquisiciones intracomunitarias de bienes",
    from: ["10", "11"],
    services: false,
    to: {
      ...{ "0": ["716", "717"], "2": ["683", "684"], "4": ["21", "22"], "5": ["718", "719"] },
      ...{ "7.5": ["685", "686"], "10": ["23", "24"], "21": ["25", "26"] },
    },
  },
  {
    name: "Adquisiciones intracomunitarias de servicios",
    from: ["10", "11"],
    services: true,
    to: {
      ...{ "0": ["720", "721"], "2": ["687", "688"], "4": ["545", "546"], "5": ["722", "723"] },
      ...{ "7.5": ["689", "690"], "10": ["547", "548"], "21": ["551", "552"] },
    },
  },
  {
    name: "Operaciones interiores corrientes",
    from: ["28", "29"],
    to: byRate("695", "190", "724", "697", "603", "605"),
    total: ["48", "49"],
  },
  {
    name: "Operaciones interiores bienes de inversión",
    from: ["30", "31"],
    to: byRate("749", "196", "728", "751", "611", "613"),
    total: ["50", "51"],
  },
  {
    name: "Importaciones de bienes corrientes",
    from: ["32", "33"],
    to: byRate("757", "202", "732", "759", "619", "621"),
    total: ["52", "53"],
  },
  {
    name: "Importaciones de bienes de inversión",
    from: ["34", "35"],
    to: byRate("761", "208", "734", "763", "623", "625"),
    total: ["54", "55"],
  },
  {
    name: "Adquisiciones intracomunitarias de bienes corrientes (deducible)",
    from: ["36", "37"],
    services: false,
    to: byRate("765", "214", "736", "767", "627", "629"),
    total: ["56", "57"],
  },
  {
    name: "Adquisiciones intracomunitarias de servicios (deducible)",
    from: ["36", "37"],
    services: true,
    to: byRate("773", "587", "740", "775", "635", "637"),
    total: ["597", "598"],
  },
  {
    name: "Adquisiciones intracomunitarias de bienes de inversión",
    from: ["38", "39"],
    to: byRate("769", "220", "738", "771", "631", "633"),
    total: ["58", "59"],
  },
];

/** Deductible boxes by rate (2, 4, 5, 7.5, 10, 21 %): each base box, its quota the next number. */
function byRate(...bases: string[]): Record<string, Pair> {
  const rates = ["2", "4", "5", "7.5", "10", "21"];
  return Object.fromEntries(bases.map((b, i) => [rates[i], [b, String(Number(b) + 1)]]));
}

/** Sales boxes whose bases make up the volume of operations in the general regime (99). */
const VOLUME_SALES = new Set(["150", "165", "01", "153", "04", "07", "14"]);

/** 64: the deductions (quota boxes of pages 03 and 04). */
const DEDUCTIONS = [
  ...["49", "513", "51", "521", "53", "55", "57", "59", "598"],
  ...["61", "661", "62", "652", "63", "522"],
];

/** Something of the year's 303s the 390 cannot place: its file is refused until it is fixed. */
export interface Issue390 {
  box_303: string;
  rate: string | null;
  amount: string;
  message: string;
}

export interface Year303 {
  boxes: Boxes;
  declarationType: string | null;
  last: boolean;
}

/** Which of the year's books rows a split takes (intra-EU services apart from the rest). */
const takes = (s: Split, r: RateBoxSum, box: string) =>
  r.box === box && (s.services === undefined || (r.operation === "intra_eu_services") === s.services);

/**
 * The 390 boxes: the 303 boxes summed over the year (the confirmed return of each period where
 * there is one) and split by rate from the books; the totals of each page; 85 (manual), 86, 95, 97
 * and 98 from the chain of results; the volume of operations (99 or, under recargo de
 * equivalencia, 102; 103, 104, 110, 125 and 108).
 */
export function compute390(
  returns303: Year303[],
  byRateRows: RateBoxSum[],
  manual: Boxes,
  options: { recargoRegime: boolean },
): { boxes: Boxes; issues: Issue390[] } {
  const total = (box: string) => sum(returns303.map((r) => dec(r.boxes[box] ?? "0")));
  const out = new Map<string, Dec>();
  const add = (box: string, v: Dec | string) => out.set(box, (out.get(box) ?? new Dec(0)).plus(v));
  const issues: Issue390[] = [];
  for (const [from, to] of DIRECT) add(to, total(from));

  const placed = new Map<string, Dec>();
  for (const s of SPLITS) {
    s.from.forEach((box, side) => {
      for (const r of byRateRows.filter((row) => takes(s, row, box))) {
        const rate = dec(r.rate).toString();
        placed.set(box, (placed.get(box) ?? new Dec(0)).plus(r.amount));
        const target = s.to[rate]?.[side];
        if (target) add(target, r.amount);
        else if (!dec(r.amount).isZero())
          issues.push({
            box_303: box,
            rate,
            amount: toMoney(r.amount),
            message: `303 box ${box} at ${rate} % has no box in the 390: correct the tax code or its box map`,
          });
      }
    });
    if (s.total)
      s.total.forEach((box, side) => {
        add(box, sum(Object.values(s.to).map(([b, q]) => out.get(side ? q : b) ?? 0)));
      });
  }
  for (const box of new Set(SPLITS.flatMap((s) => s.from))) {
    const books = placed.get(box) ?? new Dec(0);
    if (!books.eq(total(box)))
      issues.push({
        box_303: box,
        rate: null,
        amount: toMoney(total(box).minus(books)),
        message: `the year's 303s hold ${toMoney(total(box))} in box ${box}, the books ${toMoney(books)}: recompute or correct the 303s`,
      });
  }
  for (const box of ["16", "18"])
    if (!total(box).isZero())
      issues.push({
        box_303: box,
        rate: null,
        amount: toMoney(total(box)),
        message: `303 box ${box} (recargo de equivalencia at 0 %, 0.62 % or 1 %) is not split by rate in Cuadra`,
      });

  const at = (box: string) => out.get(box) ?? new Dec(0);
  const page02 = PAGE_02.slice(0, -2);
  out.set("33", sum(page02.filter((_, i) => i % 2 === 0).map(at)));
  out.set("34", sum(page02.filter((_, i) => i % 2 === 1).map(at)));
  const reQuotas = PAGE_02B.slice(0, -1).filter((_, i) => i % 2 === 1);
  out.set("47", at("34").plus(sum(reQuotas.map(at))));
  out.set("64", sum(DEDUCTIONS.map(at)));
  out.set("65", at("47").minus(at("64")));
  out.set("84", at("65"));
  out.set("85", dec(manual["85"] ?? "0"));
  out.set("86", at("84").minus(at("85")));

  const paid = returns303.filter((r) => ["I", "U", "G"].includes(r.declarationType ?? ""));
  out.set("95", sum(paid.map((r) => dec(r.boxes["71"] ?? "0"))));
  const last = returns303.find((r) => r.last);
  const lastResult = dec(last?.boxes["71"] ?? "0");
  const type = last?.declarationType ?? "";
  out.set("97", lastResult.isNegative() && type === "C" ? lastResult.abs() : new Dec(0));
  out.set("98", lastResult.isNegative() && ["D", "X", "V"].includes(type) ? lastResult.abs() : new Dec(0));

  const volume = sum(
    byRateRows.filter((r) => r.direction === "sale" && VOLUME_SALES.has(r.box)).map((r) => r.amount),
  );
  out.set(options.recargoRegime ? "102" : "99", volume);
  out.set("103", total("59"));
  out.set("104", total("60"));
  out.set("110", total("120"));
  out.set("125", total("122"));
  out.set("108", sum(["99", "102", "103", "104", "110", "125"].map(at)));

  const boxes: Boxes = {};
  for (const [box, value] of out) boxes[box] = toMoney(value);
  return { boxes, issues };
}

/**
 * The 303 boxes (and, for a box split by rate, the rate and the kind of operation) a 390 box adds
 * up, to trace it to its invoices; none for the 390's totals and own boxes (85, 86, 95...).
 */
export function sourceOf390(box: string): { boxes: string[]; rate?: string; services?: boolean } | null {
  const direct = DIRECT.filter(([, to]) => to === box).map(([from]) => from);
  if (direct.length) return { boxes: direct };
  for (const s of SPLITS)
    for (const [rate, pair] of Object.entries(s.to)) {
      const side = pair.indexOf(box);
      if (side >= 0) return { boxes: [s.from[side]], rate, services: s.services };
    }
  return null;
}

/** The labels of the 390 boxes Cuadra fills (the split ones named by kind and rate). */
export function labels390(): Record<string, string> {
  const labels: Record<string, string> = {
    ...{ "700": "Régimen ordinario 0 %: base", "701": "Régimen ordinario 0 %: cuota" },
    ...{ "667": "Régimen ordinario 2 %: base", "668": "Régimen ordinario 2 %: cuota" },
    ...{ "01": "Régimen ordinario 4 %: base", "02": "Régimen ordinario 4 %: cuota" },
    ...{ "03": "Régimen ordinario 10 %: base", "04": "Régimen ordinario 10 %: cuota" },
    ...{ "05": "Régimen ordinario 21 %: base", "06": "Régimen ordinario 21 %: cuota" },
    "27": "Otras operaciones con inversión del sujeto pasivo: base",
    "28": "Otras operaciones con inversión del sujeto pasivo: cuota",
    ...{ "29": "Modificación de bases y cuotas: base", "30": "Modificación de bases y cuotas: cuota" },
    ...{ "33": "Total bases imponibles", "34": "Total cuotas de IVA" },
    ...{ "35": "Recargo de equivalencia 0,5 %: base", "36": "Recargo de equivalencia 0,5 %: cuota" },
    ...{ "599": "Recargo de equivalencia 1,4 %: base", "600": "Recargo de equivalencia 1,4 %: cuota" },
    ...{ "41": "Recargo de equivalencia 1,75 %: base", "42": "Recargo de equivalencia 1,75 %: cuota" },
    ...{ "601": "Recargo de equivalencia 5,2 %: base", "602": "Recargo de equivalencia 5,2 %: cuota" },
    "43": "Modificación de recargo de equivalencia: base",
    "44": "Modificación de recargo de equivalencia: cuota",
    "47": "Total cuotas de IVA y recargo de equivalencia",
    ...{ "639": "Rectificación de deducciones: base", "62": "Rectificación de deducciones: cuota" },
    ...{
      "61": "Compensaciones del régimen especial de la agricultura",
      "63": "Regularización de inversiones",
    },
    "522": "Regularización por aplicación del porcentaje definitivo de prorrata",
    ...{ "64": "Suma de deducciones", "65": "Resultado régimen general", "84": "Suma de resultados" },
    ...{ "85": "Compensación de cuotas del ejercicio anterior", "86": "Resultado de la liquidación" },
    "95": "Total resultados a ingresar en las autoliquidaciones del ejercicio",
    "97": "Resultado de la última autoliquidación a compensar",
    "98": "Resultado de la última autoliquidación a devolver",
    "99": "Volumen de operaciones en régimen general",
    "102": "Volumen de operaciones en régimen especial del recargo de equivalencia",
    "103": "Entregas intracomunitarias de bienes y servicios",
    "104": "Exportaciones y otras operaciones exentas con derecho a deducción",
    "110": "Operaciones no sujetas por reglas de localización",
    "125": "Operaciones sujetas con inversión del sujeto pasivo",
    "108": "Total volumen de operaciones",
  };
  for (const s of SPLITS) {
    for (const [rate, [base, quota]] of Object.entries(s.to)) {
      labels[base] = `${s.name} ${rate.replace(".", ",")} %: base`;
      labels[quota] = `${s.name} ${rate.replace(".", ",")} %: cuota`;
    }
    if (s.total)
      [labels[s.total[0]], labels[s.total[1]]] = [`${s.name}: total bases`, `${s.name}: total cuotas`];
  }
  return labels;
}
