import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import type { SourceEntryLine } from "../../accounting/index.js";
import { subaccountCode } from "../../accounting/index.js";
import type { Direction, IrpfKind } from "../tables.js";

/**
 * The ledger entry of an invoice (documents.md, "Posting to the ledger"), as signed amounts per
 * subaccount (positive = debit) turned into debit/credit lines at the end, so a rectifying
 * invoice's negative amounts post the mirror entry by themselves.
 *
 * Sale: Dr 430 total; Cr the revenue accounts (net per line account); Cr 477 per VAT rate and per
 * RE rate; Dr 473 IRPF per rate; Cr 555 supplied.
 * Purchase: Dr the expense accounts; Dr 472 per VAT rate (for a company under RE, VAT + RE are cost
 * instead); self-assessed VAT (intra-EU, reverse charge) Dr 472 and Cr 477 for the same amount;
 * Cr 4751 IRPF per rate; Cr 400 total.
 */

export interface PostingLine {
  /** Net after the document discount, unrounded. */
  net: string;
  /** The PGC account of the line's net (700, 705, 600, 621...). */
  account: string;
  /** Key of its tax group (supplied lines have none). */
  groupKey: string | null;
}

export interface PostingTaxGroup {
  key: string;
  vatRate: string;
  reRate: string;
  base: string;
  vat: string;
  re: string;
  selfAssessed: boolean;
}

export interface PostingIrpfGroup {
  rate: string;
  kind: IrpfKind;
  amount: string;
}

export interface PostingInput {
  direction: Direction;
  contactSubaccount: string;
  lines: PostingLine[];
  taxGroups: PostingTaxGroup[];
  irpfGroups: PostingIrpfGroup[];
  supplied: string;
  total: string;
  /** Purchases of a company under recargo de equivalencia: VAT + RE are cost, never 472. */
  vatIsCost: boolean;
  suppliedAccount: string;
  /** Digits of the company's subaccount codes. */
  length: number;
}

const rate4 = (rate: string) => dec(rate).times(100).toFixed(0).padStart(4, "0");
const pct = (rate: string) => `${dec(rate).toString().replace(".", ",")} %`;

/** Splits `total` over `parts` in proportion, to the cent, the largest part taking the remainder. */
function allocate(total: Dec, parts: Map<string, Dec>): Map<string, Dec> {
  const out = new Map<string, Dec>();
  const raw = sum(parts.values());
  let largest: string | undefined;
  for (const [key, part] of parts) {
    const share = raw.isZero() ? new Dec(0) : total.times(part).div(raw).toDecimalPlaces(2);
    out.set(key, share);
    if (!largest || part.abs().gt(parts.get(largest)!.abs())) largest = key;
  }
  if (largest) out.set(largest, out.get(largest)!.plus(total.minus(sum(out.values()))));
  return out;
}

export function buildPostingLines(input: PostingInput): SourceEntryLine[] {
  const sale = input.direction === "sale";
  const sign = sale ? -1 : 1; // revenue and taxes charged are credits on a sale, costs debits on a purchase
  const amounts = new Map<string, { amount: Dec; name: string }>();
  const add = (code: string, name: string, amount: Dec | string) => {
    const current = amounts.get(code);
    amounts.set(code, { amount: (current?.amount ?? new Dec(0)).plus(amount), name: current?.name ?? name });
  };
  const sub = (account: string, suffix = "") => subaccountCode(account, suffix, input.length);

  for (const group of input.taxGroups) {
    const parts = new Map<string, Dec>();
    for (const line of input.lines) {
      if (line.groupKey !== group.key) continue;
      parts.set(line.account, (parts.get(line.account) ?? new Dec(0)).plus(line.net));
    }
    const perAccount = allocate(dec(group.base), parts);
    const taxes = dec(group.vat).plus(group.re);
    let costAccount: string | undefined;
    for (const [account, amount] of perAccount) {
      add(sub(account), "", amount.times(sign));
      if (!costAccount || amount.abs().gt(perAccount.get(costAccount)!.abs())) costAccount = account;
    }
    if (group.selfAssessed) {
      add(
        sub("472", `3${rate4(group.vatRate)}`),
        `IVA soportado autorrepercutido ${pct(group.vatRate)}`,
        group.vat,
      );
      add(
        sub("477", `3${rate4(group.vatRate)}`),
        `IVA repercutido autorrepercutido ${pct(group.vatRate)}`,
        dec(group.vat).neg(),
      );
    } else if (!sale && input.vatIsCost) {
      if (costAccount && !taxes.isZero()) add(sub(costAccount), "", taxes);
    } else {
      const vatAccount = sale ? "477" : "472";
      const side = sale ? "repercutido" : "soportado";
      if (!dec(group.vat).isZero())
        add(
          sub(vatAccount, `1${rate4(group.vatRate)}`),
          `IVA ${side} ${pct(group.vatRate)}`,
          dec(group.vat).times(sign),
        );
      if (!dec(group.re).isZero())
        add(
          sub(vatAccount, `2${rate4(group.reRate)}`),
          `Recargo de equivalencia ${side} ${pct(group.reRate)}`,
          dec(group.re).times(sign),
        );
    }
  }

  for (const irpf of input.irpfGroups) {
    if (dec(irpf.amount).isZero()) continue;
    const suffix = `${irpf.kind === "rent" ? 2 : 1}${rate4(irpf.rate)}`;
    if (sale) add(sub("473", suffix), `Retenciones IRPF a cuenta ${pct(irpf.rate)}`, irpf.amount);
    else
      add(
        sub("4751", suffix),
        `${irpf.kind === "rent" ? "Retenciones arrendamientos" : "Retenciones IRPF practicadas"} ${pct(irpf.rate)}`,
        dec(irpf.amount).neg(),
      );
  }

  if (!dec(input.supplied).isZero()) add(sub(input.suppliedAccount), "", dec(input.supplied).times(sign));
  add(input.contactSubaccount, "", dec(input.total).times(-sign));

  const lines: SourceEntryLine[] = [];
  for (const [code, { amount, name }] of amounts) {
    if (amount.isZero()) continue;
    const money = toMoney(amount.abs());
    lines.push(
      amount.isPositive()
        ? { subaccountCode: code, subaccountName: name, debit: money }
        : { subaccountCode: code, subaccountName: name, credit: money },
    );
  }
  // Debits first, then credits, each in code order: how an accountant reads an invoice entry.
  return lines.sort((a, b) =>
    a.debit && !b.debit ? -1 : !a.debit && b.debit ? 1 : a.subaccountCode.localeCompare(b.subaccountCode),
  );
}
