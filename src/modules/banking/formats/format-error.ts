/**
 * A statement file that breaks its layout or its own totals. `line` is 1-based (Norma 43) or absent
 * (CAMT.053 names the element in `where`); the import turns it into a 400 naming it, nothing saved.
 */
export class StatementFormatError extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

/** Bytes to text: strict UTF-8 first, latin-1 when the bytes are not valid UTF-8 (banks send both). */
export function decodeStatement(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}
