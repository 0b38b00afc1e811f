import iconv from "iconv-lite";
import { parseBc3 } from "./parse.js";

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
for (let k = 0; k < 5; k++) {
  const t = performance.now();
  parseBc3(buf);
  console.log((performance.now() - t).toFixed(1));
}
