import type { AuthedCtx } from "../../platform/http/context.js";
import { cifControlDigit, dniControlLetter } from "../../platform/tax-id.js";
import { createContact, type NewContact } from "./service.js";

const TRADES = [
  "Reformas",
  "Hormigones",
  "Ferretería",
  "Carpintería",
  "Fontanería",
  "Electricidad",
  "Pinturas",
  "Aluminios",
  "Excavaciones",
  "Cristalería",
  "Promociones",
  "Cubiertas",
];
const BRANDS = ["Ebro", "Duero", "Tajo", "Guadalquivir", "Júcar"];
const FIRST_NAMES = [
  "María",
  "José",
  "Ana",
  "Antonio",
  "Laura",
  "Manuel",
  "Isabel",
  "Francisco",
  "Pilar",
  "David",
];
const SURNAMES = [
  "García",
  "López",
  "Martínez",
  "Sánchez",
  "Pérez",
  "Gómez",
  "Díaz",
  "Hernández",
  "Romero",
  "Torres",
];
const PLACES: [city: string, province: string, postalCode: string][] = [
  ["Madrid", "Madrid", "28010"],
  ["Zaragoza", "Zaragoza", "50001"],
  ["Valencia", "Valencia", "46002"],
  ["Sevilla", "Sevilla", "41001"],
  ["Valladolid", "Valladolid", "47001"],
  ["Bilbao", "Bizkaia", "48001"],
  ["Toledo", "Toledo", "45001"],
  ["Murcia", "Murcia", "30001"],
];
const STREETS = [
  "Calle Mayor",
  "Avenida de la Constitución",
  "Calle del Carmen",
  "Paseo de la Estación",
  "Calle Real",
];
const PAYMENT_TERMS = [30, 60, 0, 45, 90];
/** Retailers (a hardware shop, a paint shop; a hardware supplier) under recargo de equivalencia. */
const RECARGO_EQUIVALENCIA = new Set([2, 6, 38]);
/** A supplier who is a professional (a technical architect): a person whose invoices carry IRPF. */
const DEMO_PROFESSIONAL = 43;
/** A machinery supplier in Germany: its sales to the company are intra-EU acquisitions (modelo 349). */
const EU_SUPPLIER = 44;
const EU_SUPPLIER_FIELDS = {
  name: "Baumaschinen Rhein",
  legalName: "Baumaschinen Rhein GmbH",
  taxId: "DE811907980",
  address: "Industriestraße 12",
  city: "Köln",
  province: "Nordrhein-Westfalen",
  postalCode: "50829",
  country: "DE",
  phone: "+49 221 5550123",
  email: "ventas@baumaschinen-rhein.example.com",
} as const;
/** Customers who pay only on given days of the month. */
const PAYMENT_DAYS: Record<number, number[]> = { 4: [5, 20], 9: [25] };

/** A CIF of a limited company (S.L., organisation letter B) or S.A. (A): both take a control digit. */
export function demoCif(org: "A" | "B", n: number): string {
  const digits = String(n).padStart(7, "0");
  return `${org}${digits}${cifControlDigit(digits)}`;
}

export function demoNif(n: number): string {
  const digits = String(n).padStart(8, "0");
  return digits + dniControlLetter(digits);
}

const slug = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");

function contactType(i: number): NewContact["contactType"] {
  if (i < 30) return "customer";
  return i < 45 ? "supplier" : "both";
}

/**
 * Fifty contacts of the demo company: 30 customers (a quarter of them private persons), 15 suppliers
 * (one a professional, one in Germany) and 5 that are both, three of them retailers under recargo de equivalencia,
 * with unique, valid tax ids. Deterministic, so every demo looks the same.
 */
export function demoContacts(agentIds: string[]): NewContact[] {
  return Array.from({ length: 50 }, (_, i) => {
    const type = contactType(i);
    const isPerson = (type === "customer" && i % 4 === 3) || i === DEMO_PROFESSIONAL;
    const trade = `${TRADES[i % TRADES.length]} ${BRANDS[Math.floor(i / TRADES.length)]}`;
    const name = isPerson
      ? `${FIRST_NAMES[i % FIRST_NAMES.length]} ${SURNAMES[(i * 3) % SURNAMES.length]} ${SURNAMES[(i * 7 + 1) % SURNAMES.length]}`
      : trade;
    const [city, province, postalCode] = PLACES[i % PLACES.length];
    return {
      contactType: type,
      name,
      legalName: isPerson ? name : `${trade}, ${i % 5 === 0 ? "S.A." : "S.L."}`,
      taxId: isPerson
        ? demoNif(10_000_000 + i * 1_234_567)
        : demoCif(i % 5 === 0 ? "A" : "B", 2_000_000 + i * 104_729),
      email: `${slug(name)}@example.com`,
      phone: `+34 9${String(10_000_000 + i * 1_777_777).slice(0, 8)}`,
      address: `${STREETS[i % STREETS.length]} ${(i % 90) + 1}`,
      city,
      province,
      postalCode,
      country: "ES",
      paymentTermsDays: PAYMENT_TERMS[i % PAYMENT_TERMS.length],
      ...(RECARGO_EQUIVALENCIA.has(i) ? { taxRegime: "recargo_equivalencia" as const } : {}),
      ...(PAYMENT_DAYS[i] ? { paymentDays: PAYMENT_DAYS[i] } : {}),
      agentId: type !== "supplier" && i % 3 !== 0 ? agentIds[i % agentIds.length] : null,
      ...(i === EU_SUPPLIER ? EU_SUPPLIER_FIELDS : {}),
    };
  });
}

/**
 * Creates the fifty demo contacts in a company that has none of them yet, through the contacts
 * service (so they get their ledger subaccounts in any open fiscal year); `agentIds` are the demo
 * agents the customers are shared among.
 */
export async function loadContactsDemo(ctx: AuthedCtx, companyId: string, agentIds: string[]): Promise<void> {
  for (const contact of demoContacts(agentIds)) await createContact(ctx, { ...contact, companyId });
}
