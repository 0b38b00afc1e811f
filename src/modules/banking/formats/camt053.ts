import { XMLParser, XMLValidator } from "fast-xml-parser";
import { centsToMoney, moneyToCents } from "./cents.js";
import { decodeStatement, StatementFormatError } from "./format-error.js";
import type { ParsedFile, ParsedMovement, ParsedStatement } from "./types.js";

/**
 * CAMT.053 (ISO 20022 BankToCustomerStatement, versions .001.02 to .001.08) reader. Same rules as
 * Norma 43 (documents.md, clarifications): every statement (`Stmt`) must satisfy opening (OPBD, or
 * PRCD) + credits - debits = closing (CLBD), and its TxsSummry when present, or the file is refused
 * whole naming the statement and the element. One movement per entry (`Ntry`); its transaction
 * details (references, remittance information, counterparty names and ids) are kept for matching.
 */

type Node = Record<string, unknown>;

const ARRAYS = new Set(["Stmt", "Bal", "Ntry", "TxDtls", "Ustrd", "Strd", "AdrLine"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => ARRAYS.has(name),
});

const asNode = (v: unknown): Node | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Node) : undefined;

/** The node at a path of element names, or undefined. */
function at(node: unknown, ...path: string[]): unknown {
  let cur: unknown = node;
  for (const name of path) {
    const n = asNode(cur);
    if (!n) return undefined;
    cur = n[name];
  }
  return cur;
}

/** Text of an element (which may carry attributes: then its text is under "#text"). */
function text(node: unknown, ...path: string[]): string {
  const v = at(node, ...path);
  if (typeof v === "string") return v.trim();
  if (typeof v === "number") return String(v);
  const n = asNode(v);
  const t = n?.["#text"];
  return typeof t === "string" || typeof t === "number" ? String(t).trim() : "";
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** A date element holding <Dt> or <DtTm>: its calendar date as written (no time zone shift). */
function dateOf(node: unknown): string {
  const value = text(node, "Dt") || text(node, "DtTm");
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "";
}

function fail(where: string, problem: string): never {
  throw new StatementFormatError(where, problem);
}

function amount(node: unknown, where: string): bigint {
  const raw = text(node, "Amt");
  const cents = moneyToCents(raw);
  if (cents === null || cents < 0n)
    fail(where, `Amt must be a positive amount with 2 decimals at most, found "${raw}"`);
  return cents;
}

function direction(node: unknown, where: string): 1n | -1n {
  const d = text(node, "CdtDbtInd");
  if (d === "CRDT") return 1n;
  if (d === "DBIT") return -1n;
  return fail(where, `CdtDbtInd must be CRDT or DBIT, found "${d}"`);
}

function balance(
  stmt: Node,
  codes: string[],
  where: string,
): { cents: bigint; date: string; currency: string } {
  for (const code of codes) {
    const bal = list(stmt.Bal).find((b) => text(b, "Tp", "CdOrPrtry", "Cd") === code);
    if (bal) {
      const w = `${where}, Bal ${code}`;
      return {
        cents: direction(bal, w) * amount(bal, w),
        date: dateOf(at(bal, "Dt")),
        currency: text(at(bal, "Amt"), "@Ccy"),
      };
    }
  }
  return fail(where, `the statement has no ${codes.join(" or ")} balance`);
}

/** Texts a person or a matcher can recognise a payment by. */
function entryTexts(entry: Node): { concepts: string[]; endToEnd: string; instr: string } {
  const concepts: string[] = [];
  let endToEnd = "";
  let instr = "";
  const add = (v: string) => {
    if (v && v !== "NOTPROVIDED" && !concepts.includes(v)) concepts.push(v);
  };
  for (const tx of list(at(entry, "NtryDtls", "TxDtls"))) {
    endToEnd ||= text(tx, "Refs", "EndToEndId");
    instr ||= text(tx, "Refs", "InstrId");
    for (const u of list(at(tx, "RmtInf", "Ustrd"))) add(typeof u === "string" ? u.trim() : text({ u }, "u"));
    for (const s of list(at(tx, "RmtInf", "Strd"))) {
      add(text(s, "CdtrRefInf", "Ref"));
      for (const u of list(at(s, "AddtlRmtInf"))) add(typeof u === "string" ? u.trim() : "");
    }
    for (const party of ["Dbtr", "Cdtr", "UltmtDbtr", "UltmtCdtr"]) {
      add(text(tx, "RltdPties", party, "Nm") || text(tx, "RltdPties", party, "Pty", "Nm"));
      add(
        text(tx, "RltdPties", party, "Id", "OrgId", "Othr", "Id") ||
          text(tx, "RltdPties", party, "Pty", "Id", "OrgId", "Othr", "Id"),
      );
    }
    add(text(tx, "AddtlTxInf"));
  }
  add(text(entry, "AddtlNtryInf"));
  return { concepts, endToEnd: endToEnd === "NOTPROVIDED" ? "" : endToEnd, instr };
}

function bankCode(entry: Node): string {
  const domain = text(entry, "BkTxCd", "Domn", "Cd");
  const family = text(entry, "BkTxCd", "Domn", "Fmly", "Cd");
  const sub = text(entry, "BkTxCd", "Domn", "Fmly", "SubFmlyCd");
  return [domain, family, sub].filter(Boolean).join("-") || text(entry, "BkTxCd", "Prtry", "Cd");
}

function readStatement(stmt: Node, index: number): ParsedStatement {
  const where = `Stmt ${index + 1}`;
  const account = (text(stmt, "Acct", "Id", "IBAN") || text(stmt, "Acct", "Id", "Othr", "Id")).replace(
    /\s+/g,
    "",
  );
  if (!account) fail(where, "Acct/Id has no IBAN nor other account id");
  const opening = balance(stmt, ["OPBD", "PRCD"], where);
  const closing = balance(stmt, ["CLBD"], where);
  let debits = 0n;
  let credits = 0n;
  let debitCount = 0;
  let creditCount = 0;
  const movements: ParsedMovement[] = list(stmt.Ntry).map((raw, i) => {
    const entry = asNode(raw) ?? {};
    const w = `${where}, Ntry ${i + 1}`;
    const cents = amount(entry, w);
    const sign = direction(entry, w);
    if (sign < 0n) {
      debits += cents;
      debitCount++;
    } else {
      credits += cents;
      creditCount++;
    }
    const booking = dateOf(at(entry, "BookgDt"));
    const value = dateOf(at(entry, "ValDt")) || booking;
    if (!booking && !value) fail(w, "the entry has neither BookgDt nor ValDt");
    const texts = entryTexts(entry);
    return {
      position: w,
      operationDate: booking || value,
      valueDate: value,
      amount: centsToMoney(sign * cents),
      commonConcept: bankCode(entry).slice(0, 40),
      ownConcept: "",
      document: text(entry, "AcctSvcrRef").slice(0, 60),
      reference1: texts.endToEnd.slice(0, 60),
      reference2: texts.instr.slice(0, 60),
      concepts: texts.concepts,
      foreignCurrency: null,
      foreignAmount: null,
    };
  });
  const expected = opening.cents + credits - debits;
  if (expected !== closing.cents)
    fail(
      where,
      `closing balance CLBD ${centsToMoney(closing.cents)} is not opening ${centsToMoney(opening.cents)} + credits ` +
        `${centsToMoney(credits)} - debits ${centsToMoney(debits)} = ${centsToMoney(expected)}`,
    );
  const summary = at(stmt, "TxsSummry");
  if (summary) {
    const checks: Array<[string, number, bigint]> = [
      ["TtlCdtNtries", creditCount, credits],
      ["TtlDbtNtries", debitCount, debits],
    ];
    for (const [name, n, total] of checks) {
      const declared = text(summary, name, "NbOfNtries");
      if (declared && Number(declared) !== n)
        fail(`${where}, TxsSummry/${name}`, `counts ${declared} entries, the statement has ${n}`);
      const sumText = text(summary, name, "Sum");
      if (sumText && moneyToCents(sumText) !== total)
        fail(
          `${where}, TxsSummry/${name}`,
          `totals ${sumText}, the entries add up to ${centsToMoney(total)}`,
        );
    }
  }
  const dates = movements.map((m) => m.operationDate).sort();
  return {
    position: where,
    account,
    accountName: text(stmt, "Acct", "Nm") || text(stmt, "Acct", "Ownr", "Nm"),
    currency: text(at(stmt, "Acct"), "Ccy") || opening.currency || "EUR",
    dateFrom: dateOf({ Dt: text(stmt, "FrToDt", "FrDtTm") }) || opening.date || dates[0] || closing.date,
    dateTo:
      dateOf({ Dt: text(stmt, "FrToDt", "ToDtTm") }) ||
      closing.date ||
      dates[dates.length - 1] ||
      opening.date,
    openingBalance: centsToMoney(opening.cents),
    closingBalance: centsToMoney(closing.cents),
    debitCount,
    debitTotal: centsToMoney(debits),
    creditCount,
    creditTotal: centsToMoney(credits),
    movements,
  };
}

export function looksLikeCamt053(bytes: Uint8Array): boolean {
  const head = decodeStatement(bytes.subarray(0, 2048)).trimStart();
  return head.startsWith("<") && head.includes("camt.053");
}

export function parseCamt053(bytes: Uint8Array): ParsedFile {
  const xml = decodeStatement(bytes);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) fail(`line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
  const doc = parser.parse(xml) as Node;
  const root = asNode(at(doc, "Document", "BkToCstmrStmt"));
  if (!root) fail("Document", "not a CAMT.053 statement (no Document/BkToCstmrStmt)");
  const statements = list(root.Stmt).map((s, i) => readStatement(asNode(s) ?? {}, i));
  if (statements.length === 0) fail("BkToCstmrStmt", "the file holds no statement (Stmt)");
  return { format: "camt053", statements };
}
