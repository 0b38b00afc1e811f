import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { moneyInput, percentInput, quantityInput, unitPriceInput } from "./money.js";

const schemas = { moneyInput, quantityInput, unitPriceInput, percentInput };

describe("decimal string inputs", () => {
  it.each(Object.entries(schemas))(
    "%s accepts exactly what its published pattern accepts",
    (_name, schema) => {
      const pattern = new RegExp((z.toJSONSchema(schema) as { pattern: string }).pattern);
      const decimalish = fc
        .array(fc.constantFrom(..."0123456789.- \t"), { maxLength: 22 })
        .map((chars) => chars.join(""));
      fc.assert(
        fc.property(fc.oneof(decimalish, fc.string()), (text) => {
          expect(schema.safeParse(text).success, JSON.stringify(text)).toBe(pattern.test(text));
        }),
        { numRuns: 500 },
      );
    },
  );

  it("refuses surrounding spaces instead of trimming them", () => {
    for (const text of [" 12.50", "12.50 ", "\t1", "1\n"])
      expect(moneyInput.safeParse(text).success).toBe(false);
    expect(moneyInput.parse("12.50")).toBe("12.50");
  });
});
