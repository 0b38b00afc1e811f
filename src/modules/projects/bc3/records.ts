/** Splits decoded BC3 text into records, fields (`|`) and subfields (`\`), keeping 1-based line numbers. */

export interface Bc3Sub {
  /** Trimmed subfield text. */
  text: string;
  line: number;
}

const TILDE = 126;
const BACKSLASH = 92;

const countLines = (text: string, from: number, to: number): number => {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

/** One `|`-separated field; its subfields are only split when asked for (most fields never are). */
export class Bc3Field {
  private cached: Bc3Sub[] | null = null;

  constructor(
    /** Raw field text (line breaks normalized to "\n", not trimmed). */
    readonly raw: string,
    readonly line: number,
  ) {}

  get subs(): Bc3Sub[] {
    if (this.cached) return this.cached;
    const subs: Bc3Sub[] = [];
    const raw = this.raw;
    let line = this.line;
    let start = 0;
    for (let i = 0; i <= raw.length; i++) {
      const ch = i < raw.length ? raw.charCodeAt(i) : BACKSLASH;
      if (ch === BACKSLASH) {
        const piece = raw.slice(start, i);
        const text = piece.trim();
        // The subfield's line is the line of its first non-blank character.
        const lead = text === "" ? 0 : countLines(piece, 0, piece.indexOf(text));
        subs.push({ text, line: line + lead });
        line += countLines(piece, 0, piece.length);
        start = i + 1;
      }
    }
    this.cached = subs;
    return subs;
  }
}

export interface Bc3Record {
  /** Record type in upper case: "V", "C", "D", ... */
  type: string;
  line: number;
  /** Fields after the type: fields[0] is the first field after `~X|`. */
  fields: Bc3Field[];
}

function splitFields(body: string, firstLine: number): Bc3Field[] {
  const fields: Bc3Field[] = [];
  let line = firstLine;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf("|", start);
    if (end < 0) end = body.length;
    const raw = body.slice(start, end);
    fields.push(new Bc3Field(raw, line));
    if (raw.includes("\n")) line += countLines(raw, 0, raw.length);
    start = end + 1;
  }
  return fields;
}

function toRecord(body: string, line: number): Bc3Record {
  const text = body.trimEnd();
  const bar = text.indexOf("|");
  const type = (bar < 0 ? text : text.slice(0, bar)).trim().toUpperCase();
  const fields = bar < 0 ? [] : splitFields(text.slice(bar + 1), line + countLines(text, 0, bar));
  // A well-formed record ends with `|`, which leaves an empty trailing field: drop it.
  if (fields.length > 0 && text.endsWith("|")) fields.pop();
  return { type, line, fields };
}

/**
 * A record starts with `~` at the beginning of a line and runs until the next such `~` (records may span
 * lines). Text before the first record is ignored. CRLF and lone CR are normalized to "\n".
 */
export function splitRecords(decoded: string): Bc3Record[] {
  const text = decoded.includes("\r") ? decoded.replace(/\r\n?/g, "\n") : decoded;
  const records: Bc3Record[] = [];
  let start = text.charCodeAt(0) === TILDE ? 0 : text.indexOf("\n~");
  if (start > 0) start++;
  let line = start < 0 ? 1 : 1 + countLines(text, 0, start);
  while (start >= 0) {
    let next = text.indexOf("\n~", start);
    if (next >= 0) next++;
    const end = next < 0 ? text.length : next;
    records.push(toRecord(text.slice(start + 1, end), line));
    if (next >= 0) line += countLines(text, start, end);
    start = next;
  }
  return records;
}
