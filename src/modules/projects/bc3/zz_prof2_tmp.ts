import iconv from "iconv-lite";
import { decodeBc3 } from "./charset.js";
import { collect } from "./collect.js";
import { parseBc3 } from "./parse.js";
import { splitRecords } from "./records.js";

const lines = ["~V|X|FIEBDC-3/2016|Gen||ANSI||", "~C|G##||Generated|0||0|"];
const chapters: string[] = [];
for (let c = 0; c < 50; c++) {
  const items: string[] = [];
  for (let i = 0; i < 100; i++) {
    const code = `I${c}.${i}`;
    items.push(`${code}\\1\\${i}.5\\`);
    lines.push(`~C|${code}|m2|Partida número ${i} del capítulo ${c}|${i}.1234||0|`);
    lines.push(`~T|${code}|Descripción larga de la partida ${code}, con acentos: áéíóú ñ ü ç.|`);
    lines.push(`~M|C${c}#\\${code}|${c + 1}\\${i + 1}\\||\\Planta\\2\\${i}.25\\3\\\\\\Otra\\\\1.5\\\\2\\|`);
  }
  chapters.push(`C${c}#\\1\\1\\`);
  lines.push(`~C|C${c}#||Capítulo ${c}|0||0|`, `~D|C${c}#|${items.join("")}|`);
}
lines.push(`~D|G##|${chapters.join("")}|`);
const buf = iconv.encode(lines.join("\r\n"), "win1252");
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const text = decodeBc3(buf, "ANSI");
  const t1 = performance.now();
  const recs = splitRecords(text);
  const t2 = performance.now();
  collect(recs);
  const t3 = performance.now();
  parseBc3(buf);
  const t4 = performance.now();
  console.log([t1 - t0, t2 - t1, t3 - t2, t4 - t3].map((x) => x.toFixed(1)).join(" "));
}
