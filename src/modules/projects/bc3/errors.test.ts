import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBc3 } from "./parse.js";
import type { Bc3LineError } from "./types.js";

const BASE = [
  "~V|X|FIEBDC-3/2016|Test||ANSI||", // 1
  "~K|\\2\\2\\3\\2\\2\\2\\2\\EUR\\|0|", // 2
  "~C|R##||Root|0||0|", // 3
  "~D|R##|A#\\1\\1\\|", // 4
  "~C|A#||Chapter A|0||0|", // 5
  "~D|A#|I1\\1\\2\\|", // 6
  "~C|I1|m|Item one|10||0|", // 7
  "~M|A#\\I1|1\\1\\|2|\\x\\2\\\\\\\\|", // 8
];

const parse = (lines: string[]) => parseBc3(Buffer.from(lines.join("\r\n"), "latin1"));
const errorsOf = (lines: string[]): Bc3LineError[] => {
  const result = parse(lines);
  if (result.ok) throw new Error("expected the file to be rejected");
  return result.errors;
};
/** BASE with line `n` (1-based) replaced. */
const replace = (n: number, text: string, lines = BASE) => lines.map((l, i) => (i === n - 1 ? text : l));
const lines = (errors: Bc3LineError[]) => errors.map((e) => e.line);

describe("parseBc3 on malformed files", () => {
  it("accepts the base file", () => {
    const result = parse(BASE);
    expect(result.ok && result.budget.root.children[0].children[0].quantity).toBe("2.000");
  });

  it("reports an empty file", () => {
    expect(parseBc3(Buffer.alloc(0))).toEqual({ ok: false, errors: [{ line: 1, message: "empty file" }] });
    expect(parseBc3(Buffer.from(" \r\n\r\n\t"))).toEqual({
      ok: false,
      errors: [{ line: 1, message: "empty file" }],
    });
  });

  it("reports a missing ~V record", () => {
    expect(errorsOf(BASE.slice(1))).toEqual([{ line: 1, message: "no ~V record" }]);
  });

  it("reports an unknown charset at the line of the ~V record", () => {
    const file = [BASE[1], "~V|X|FIEBDC-3/2016|Test||KOI8-R||", ...BASE.slice(2)];
    expect(errorsOf(file)).toEqual([{ line: 2, message: 'unknown charset "KOI8-R"' }]);
  });

  it("reports a missing root concept", () => {
    const file = replace(4, "~D|R|A#\\1\\1\\|", replace(3, "~C|R||Root|0||0|"));
    const errors = errorsOf(file);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 1, message: expect.stringContaining("no root concept") });
  });

  it("reports a ~D child without ~C at the line of the ~D", () => {
    const errors = errorsOf(replace(6, "~D|A#|I1\\1\\2\\I9\\1\\1\\|"));
    expect(errors).toEqual([{ line: 6, message: "~D of A refers to I9, which has no ~C" }]);
  });

  it("reports a ~D parent without ~C", () => {
    const errors = errorsOf([...BASE, "~D|ZZ#|I1\\1\\1\\|"]);
    expect(errors).toEqual([{ line: 9, message: "~D parent ZZ has no ~C" }]);
  });

  it("reports non-numeric prices, factors, yields and measurement values", () => {
    expect(errorsOf(replace(7, "~C|I1|m|Item one|10,50||0|"))).toEqual([
      { line: 7, message: 'price of I1 is not a number: "10,50"' },
    ]);
    expect(errorsOf(replace(6, "~D|A#|I1\\x\\2\\|"))).toEqual([
      { line: 6, message: 'factor of I1 in A is not a number: "x"' },
    ]);
    expect(errorsOf(replace(6, "~D|A#|I1\\1\\dos\\|"))).toEqual([
      { line: 6, message: 'yield of I1 in A is not a number: "dos"' },
    ]);
    expect(errorsOf(replace(8, "~M|A#\\I1|1\\1\\|2|\\x\\2\\1e3\\\\\\|"))).toEqual([
      { line: 8, message: 'measurement of I1 is not a number: "1e3"' },
    ]);
    expect(errorsOf(replace(8, "~M|A#\\I1|1\\1\\|dos|\\x\\2\\\\\\\\|"))).toEqual([
      { line: 8, message: 'total measurement of I1 is not a number: "dos"' },
    ]);
  });

  it("reports a ~M whose parent\\child pair is not in any ~D", () => {
    expect(errorsOf(replace(8, "~M|A#\\I2|1\\1\\|2|\\x\\2\\\\\\\\|"))).toEqual([
      { line: 8, message: "~M refers to unknown pair A\\I2" },
    ]);
    expect(lines(errorsOf(replace(8, "~M|R##\\I1|1\\1\\|2|\\x\\2\\\\\\\\|")))).toEqual([8]);
    expect(lines(errorsOf(replace(8, "~M|NOPE|1\\1\\|2|\\x\\2\\\\\\\\|")))).toEqual([8]);
  });

  it("reports a cycle in ~D at the line that closes it", () => {
    const errors = errorsOf([...BASE, "~D|I1|A#\\1\\1\\|"]);
    expect(errors).toEqual([{ line: 9, message: "cycle in ~D: A -> I1 -> A" }]);
    // A self reference added with ~Y (append to decomposition).
    expect(errorsOf([...BASE, "~Y|A#|A#\\\\\\|"])).toEqual([{ line: 9, message: "cycle in ~D: A -> A" }]);
  });

  it("reports every error of a file, sorted by line", () => {
    const file = [...BASE, "~D|I1|A#\\1\\1\\|"];
    file[0] = "~V|X|FIEBDC-3/2016|Test||KOI8-R||";
    file[5] = "~D|A#|I1\\1\\2\\I9\\1\\1\\|";
    file[6] = "~C|I1|m|Item one|diez||0|";
    file[7] = "~M|A#\\I2|1\\1\\|2|\\x\\2\\\\\\\\|";
    expect(lines(errorsOf(file))).toEqual([1, 6, 7, 8, 9]);
  });

  it("points at the exact line inside a record that spans lines", () => {
    const file = replace(6, "~D|A#|I1\\1\\2\\\r\n  I9\\1\\1\\\r\n  I1\\x\\1\\|");
    expect(errorsOf(file)).toEqual([
      { line: 7, message: "~D of A refers to I9, which has no ~C" },
      { line: 8, message: 'factor of I1 in A is not a number: "x"' },
    ]);
  });

  it("ignores unknown record types", () => {
    const extra = ["~L|A#|x|", "~G|I1|img.jpg|", "~E|E1|x|", "~X|I1|a\\b|", "~A|I1|kw|", "~B|I1|I1B|"];
    const result = parse([...BASE, ...extra, "~F|I1|0\\doc.pdf\\|", "~R|x|", "~W|x|", "~O|x|", "~Q|x|"]);
    expect(result.ok).toBe(true);
  });

  it("reports a price the budget cannot store (over 14 integer digits or 4 decimals) at its line", () => {
    expect(errorsOf(replace(7, "~C|I1|m|Item one|12345678901234567890||0|"))).toEqual([
      { line: 7, message: 'price of I1 is too large (at most 14 integer digits): "12345678901234567890"' },
    ]);
    expect(errorsOf(replace(7, "~C|I1|m|Item one|10.12345||0|"))).toEqual([
      { line: 7, message: 'price of I1 has more than 4 decimals: "10.12345"' },
    ]);
    // leading zeros do not count: 14 integer digits and 4 decimals fit NUMERIC(18,4)
    // (with a ~K that declares 4 decimals for line amounts and prices, DI and DC)
    const fourDecimals = replace(2, "~K|\\2\\2\\3\\4\\2\\4\\2\\EUR\\|0|");
    const fits = parse(replace(7, "~C|I1|m|Item one|00099999999999999.1234||0|", fourDecimals));
    expect(fits.ok && fits.budget.root.children[0].children[0].unitPrice).toBe("99999999999999.1234");
  });

  it("reports a quantity or an amount too large to store at the line of its measurement", () => {
    const huge = "~M|A#\\I1|1\\1\\|9999999800000001|\\x\\99999999\\99999999\\\\\\|";
    expect(errorsOf(replace(8, huge))).toEqual([
      { line: 8, message: "quantity of I1 (9999999800000001) is too large: at most 15 integer digits" },
    ]);
    const costly = replace(7, "~C|I1|m|Item one|99999999999999||0|");
    expect(errorsOf(replace(8, "~M|A#\\I1|1\\1\\|1000|\\x\\1000\\\\\\\\|", costly))).toEqual([
      { line: 8, message: "amount of I1 (quantity x price) is too large: at most 16 integer digits" },
    ]);
  });

  it("refuses a date that does not exist (30/02/26) and accepts the FIEBDC-3 forms", () => {
    expect(errorsOf(replace(7, "~C|I1|m|Item one|10|30/02/26|0|"))).toEqual([
      { line: 7, message: 'date of I1 is not a valid date (DDMMYYYY or DDMMYY): "30/02/26"' },
    ]);
    for (const bad of ["310426", "00012026", "2026-13", "hoy", "1234567"]) {
      expect(lines(errorsOf(replace(7, `~C|I1|m|Item one|10|${bad}|0|`))), bad).toEqual([7]);
    }
    for (const good of ["290713", "29072013", "29/02/2024", "072013", "0713", "2013", "13", "01.01.99"]) {
      expect(parse(replace(7, `~C|I1|m|Item one|10|${good}|0|`)).ok, good).toBe(true);
    }
  });

  /** A root and a chain of `depth` chapters, each the only child of the previous one, then an item. */
  const chain = (depth: number) => {
    const out = [BASE[0], BASE[1], "~C|R##||Root|0||0|", "~D|R##|C1#\\1\\1\\|"];
    for (let i = 1; i <= depth; i++) {
      out.push(`~C|C${i}#||Chapter ${i}|0||0|`);
      out.push(i < depth ? `~D|C${i}#|C${i + 1}#\\1\\1\\|` : `~D|C${i}#|I1\\1\\2\\|`);
    }
    out.push("~C|I1|m|Item|10||0|");
    return out;
  };

  it("builds a 5,000-level chain without recursion", () => {
    const result = parse(chain(5000));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    let node = result.budget.root.children[0];
    let depth = 1;
    while (node.children.length > 0) {
      node = node.children[0];
      depth++;
    }
    expect(depth).toBe(5001);
    expect(node).toMatchObject({ code: "I1", kind: "item", quantity: "2.000" });
  });

  it("with maxDepth, reports a chain too deep at the line of the ~D that goes past it", () => {
    const errors = parseBc3(Buffer.from(chain(5000).join("\r\n"), "latin1"), { maxDepth: 10 });
    // C11 is placed by the ~D of C10: line 4 + 2 x 10
    expect(errors).toEqual({
      ok: false,
      errors: [{ line: 24, message: "C11 is nested deeper than 10 levels" }],
    });
  });

  it("never throws, whatever the bytes", () => {
    const alphabet = fc.constantFrom(..."~|\\#\r\nCDMTVKY01.-ab ñ".split(""));
    const bc3ish = fc.array(alphabet, { maxLength: 300 }).map((a) => Buffer.from(a.join(""), "latin1"));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
          bc3ish,
        ),
        (buf) => {
          const result = parseBc3(buf);
          if (!result.ok) {
            expect(result.errors.length).toBeGreaterThan(0);
            expect(result.errors.some((e) => e.message.startsWith("unreadable"))).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
