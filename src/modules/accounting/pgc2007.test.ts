import { describe, expect, it } from "vitest";
import { findPgcAccount, PGC_2007 } from "./pgc2007.js";

const codes = PGC_2007.map((a) => a.code);

describe("PGC_2007", () => {
  it("has at least 250 accounts", () => {
    expect(PGC_2007.length).toBeGreaterThanOrEqual(250);
  });

  it("has unique codes of 1 to 4 digits", () => {
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[1-9]\d{0,3}$/);
  });

  it("is sorted by code (every account right after its parent)", () => {
    const sorted = [...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(codes).toEqual(sorted);
  });

  it("derives parentCode from the code and every parent exists", () => {
    const known = new Set(codes);
    for (const account of PGC_2007) {
      if (account.code.length === 1) {
        expect(account.parentCode).toBeNull();
      } else {
        expect(account.parentCode).toBe(account.code.slice(0, -1));
        expect(known.has(account.parentCode as string), account.code).toBe(true);
      }
    }
  });

  it("has non-empty, trimmed names", () => {
    for (const account of PGC_2007) {
      expect(account.name.trim(), account.code).toBe(account.name);
      expect(account.name.length, account.code).toBeGreaterThan(0);
      expect(account.name, account.code).not.toMatch(/\s{2}/);
    }
  });

  it("has the groups 1 to 9", () => {
    const groups = PGC_2007.filter((a) => a.parentCode === null);
    expect(groups.map((g) => [g.code, g.name])).toEqual([
      ["1", "Financiación básica"],
      ["2", "Activo no corriente"],
      ["3", "Existencias"],
      ["4", "Acreedores y deudores por operaciones comerciales"],
      ["5", "Cuentas financieras"],
      ["6", "Compras y gastos"],
      ["7", "Ventas e ingresos"],
      ["8", "Gastos imputados al patrimonio neto"],
      ["9", "Ingresos imputados al patrimonio neto"],
    ]);
  });

  it("has every subgroup of the PGC", () => {
    const subgroups = codes.filter((c) => c.length === 2);
    expect(subgroups).toEqual([
      ...["10", "11", "12", "13", "14", "15", "16", "17", "18", "19"],
      ...["20", "21", "22", "23", "24", "25", "26", "28", "29"],
      ...["30", "31", "32", "33", "34", "35", "36", "39"],
      ...["40", "41", "43", "44", "46", "47", "48", "49"],
      ...["50", "51", "52", "53", "54", "55", "56", "57", "58", "59"],
      ...["60", "61", "62", "63", "64", "65", "66", "67", "68", "69"],
      ...["70", "71", "73", "74", "75", "76", "77", "79"],
      ...["80", "81", "82", "83", "84", "85", "86", "89"],
      ...["90", "91", "92", "94", "95", "96", "99"],
    ]);
  });

  it("has the 3-digit accounts of every subgroup", () => {
    for (const subgroup of codes.filter((c) => c.length === 2)) {
      expect(
        codes.some((c) => c.length === 3 && c.startsWith(subgroup)),
        subgroup,
      ).toBe(true);
    }
    expect(codes.filter((c) => c.length === 3).length).toBeGreaterThan(350);
  });

  it("does not include accounts of the non-profit adaptation", () => {
    for (const code of ["207", "283", "299", "412", "447", "448", "464", "653", "654", "656", "72", "720"]) {
      expect(findPgcAccount(code), code).toBeUndefined();
    }
  });

  it("has the usual accounts with their official names", () => {
    const expected: Record<string, string> = {
      "10": "Capital",
      "43": "Clientes",
      "47": "Administraciones públicas",
      "57": "Tesorería",
      "100": "Capital social",
      "112": "Reserva legal",
      "113": "Reservas voluntarias",
      "129": "Resultado del ejercicio",
      "170": "Deudas a largo plazo con entidades de crédito",
      "206": "Aplicaciones informáticas",
      "217": "Equipos para procesos de información",
      "281": "Amortización acumulada del inmovilizado material",
      "400": "Proveedores",
      "410": "Acreedores por prestaciones de servicios",
      "430": "Clientes",
      "432": "Clientes, operaciones de «factoring»",
      "465": "Remuneraciones pendientes de pago",
      "472": "Hacienda Pública, IVA soportado",
      "473": "Hacienda Pública, retenciones y pagos a cuenta",
      "475": "Hacienda Pública, acreedora por conceptos fiscales",
      "476": "Organismos de la Seguridad Social, acreedores",
      "477": "Hacienda Pública, IVA repercutido",
      "520": "Deudas a corto plazo con entidades de crédito",
      "570": "Caja, euros",
      "572": "Bancos e instituciones de crédito c/c vista, euros",
      "600": "Compras de mercaderías",
      "609": "«Rappels» por compras",
      "621": "Arrendamientos y cánones",
      "623": "Servicios de profesionales independientes",
      "629": "Otros servicios",
      "640": "Sueldos y salarios",
      "642": "Seguridad Social a cargo de la empresa",
      "662": "Intereses de deudas",
      "681": "Amortización del inmovilizado material",
      "700": "Ventas de mercaderías",
      "705": "Prestaciones de servicios",
      "759": "Ingresos por servicios diversos",
      "4000": "Proveedores (euros)",
      "4009": "Proveedores, facturas pendientes de recibir o de formalizar",
      "4100": "Acreedores por prestaciones de servicios (euros)",
      "4300": "Clientes (euros)",
      "4309": "Clientes, facturas pendientes de formalizar",
      "4400": "Deudores (euros)",
      "4650": "Remuneraciones pendientes de pago",
      "4700": "Hacienda Pública, deudora por IVA",
      "4708": "Hacienda Pública, deudora por subvenciones concedidas",
      "4709": "Hacienda Pública, deudora por devolución de impuestos",
      "4720": "Hacienda Pública, IVA soportado",
      "4730": "Hacienda Pública, retenciones y pagos a cuenta",
      "4750": "Hacienda Pública, acreedora por IVA",
      "4751": "Hacienda Pública, acreedora por retenciones practicadas",
      "4752": "Hacienda Pública, acreedora por impuesto sobre sociedades",
      "4760": "Organismos de la Seguridad Social, acreedores",
      "4770": "Hacienda Pública, IVA repercutido",
      "5200": "Préstamos a corto plazo de entidades de crédito",
      "5720": "Bancos e instituciones de crédito c/c vista, euros",
      "6290": "Otros servicios",
      "6400": "Sueldos y salarios",
      "6420": "Seguridad Social a cargo de la empresa",
      "7000": "Ventas de mercaderías",
      "7050": "Prestaciones de servicios",
      "7590": "Ingresos por servicios diversos",
    };
    for (const [code, name] of Object.entries(expected)) {
      expect(findPgcAccount(code)?.name, code).toBe(name);
    }
  });

  it("is frozen", () => {
    expect(Object.isFrozen(PGC_2007)).toBe(true);
    expect(Object.isFrozen(PGC_2007[0])).toBe(true);
  });
});
