import iconv from "iconv-lite";
import type { Bc3Charset } from "./types.js";

const ENCODINGS: Record<Bc3Charset, string> = {
  "850": "cp850",
  "437": "cp437",
  ANSI: "win1252",
  "UTF-8": "utf8",
};

export interface CharsetDetection {
  /** Charset declared by the ~V record; "850" when the field is empty (FIEBDC-3 default). */
  charset: Bc3Charset | null;
  /** Raw label of the ~V charset field, for error messages. */
  label: string;
  /** 1-based line of the ~V record. */
  line: number;
}

const TILDE = 0x7e;
const LF = 0x0a;
const CR = 0x0d;

const atLineStart = (buf: Buffer, i: number): boolean => i === 0 || buf[i - 1] === LF || buf[i - 1] === CR;

/** 1-based line of byte offset `end`, counting LF, CRLF and lone CR as one line break each. */
const lineAt = (buf: Buffer, end: number): number => {
  let line = 1;
  for (let i = 0; i < end; i++) {
    if (buf[i] === LF || (buf[i] === CR && buf[i + 1] !== LF)) line++;
  }
  return line;
};

/**
 * Finds the ~V record in the raw bytes (its delimiters are ASCII in every supported charset) and reads
 * its charset field: ~V|owner|version|program|header\labels|CHARSET|comment|...
 * Returns null when the file has no ~V record.
 */
export function detectCharset(buf: Buffer): CharsetDetection | null {
  let start = buf.indexOf("~V|", 0, "latin1");
  while (start > 0 && !atLineStart(buf, start)) start = buf.indexOf("~V|", start + 1, "latin1");
  if (start < 0) return null;
  let end = start + 1;
  while (end < buf.length && !(buf[end] === TILDE && atLineStart(buf, end))) end++;
  const fields = buf.toString("latin1", start + 1, end).split("|");
  const label = (fields[5] ?? "").trim();
  return { charset: charsetFromLabel(label), label, line: lineAt(buf, start) };
}

export function charsetFromLabel(label: string): Bc3Charset | null {
  const upper = label.trim().toUpperCase();
  if (upper === "" || upper === "850") return "850";
  if (upper === "437") return "437";
  if (upper === "ANSI") return "ANSI";
  if (upper === "UTF-8" || upper === "UTF8") return "UTF-8";
  return null;
}

/**
 * True when the bytes hold at least one multi-byte UTF-8 sequence and no invalid one: text in a
 * single-byte code page (accented letters alone, 0x80-0xFF) practically never passes this.
 */
export function looksLikeUtf8(buf: Buffer): boolean {
  let multiByte = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (b < 0x80) continue;
    const extra = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (extra < 0 || i + extra >= buf.length) return false;
    for (let k = 1; k <= extra; k++) if ((buf[i + k] & 0xc0) !== 0x80) return false;
    i += extra;
    multiByte = true;
  }
  return multiByte;
}

export const decodeBc3 = (buf: Buffer, charset: Bc3Charset): string => iconv.decode(buf, ENCODINGS[charset]);

/** Characters the target charset cannot represent are written as "?" by iconv-lite. */
export const encodeBc3 = (text: string, charset: Bc3Charset): Buffer =>
  iconv.encode(text, ENCODINGS[charset]);
