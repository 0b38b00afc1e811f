import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { parseBc3 } from "./parse.js";

describe("parseBc3 on a large file", () => {
  it("parses a generated file with 5,000 items (timings: npm run bench -- bc3)", () => {
    const lines = [
      "~V|X|FIEBDC-3/2016|Gen||ANSI||",
      "~K|\\2\\2\\3\\2\\2\\2\\2\\EUR\\|0|",
      "~C|G##||Generated|0||0|",
    ];
    const chapters: string[] = [];
    for (let c = 0; c < 50; c++) {
      const items: string[] = [];
      for (let i = 0; i < 100; i++) {
        const code = `I${c}.${i}`;
        items.push(`${code}\\1\\${i}.5\\`);
        lines.push(`~C|${code}|m2|Partida número ${i} del capítulo ${c}|${i}.1234||0|`);
        lines.push(`~T|${code}|Descripción larga de la partida ${code}, con acentos: áéíóú ñ ü ç.|`);
        lines.push(
          `~M|C${c}#\\${code}|${c + 1}\\${i + 1}\\||\\Planta\\2\\${i}.25\\3\\\\\\Otra\\\\1.5\\\\2\\|`,
        );
      }
      chapters.push(`C${c}#\\1\\1\\`);
      lines.push(`~C|C${c}#||Capítulo ${c}|0||0|`, `~D|C${c}#|${items.join("")}|`);
    }
    lines.push(`~D|G##|${chapters.join("")}|`);
    const buf = iconv.encode(lines.join("\r\n"), "win1252");
    const result = parseBc3(buf);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const budget = result.budget;
    expect(budget.root.children).toHaveLength(50);
    expect(budget.root.children.reduce((n, c) => n + c.children.length, 0)).toBe(5000);
    expect(budget.root.children[3].children[7].quantity).toBe("46.500"); // 2 x 7.25 x 3 + 1.5 x 2
  });
});
