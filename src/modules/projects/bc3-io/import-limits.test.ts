import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import type { Bc3Budget, Bc3Node } from "../bc3/types.js";
import { writeBc3 } from "../bc3/write.js";
import { multipartFile, uniqueCode } from "../budgets/test-support.js";
import { INLINE_MAX_BYTES } from "./off-thread.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const item = (c: number, i: number): Bc3Node => ({
  code: `E${c}.${i}`,
  kind: "item",
  unit: "m2",
  summary: `Partida ${i} del capítulo ${c}, solado de baldosa cerámica`,
  longText: "Solado de baldosa de gres porcelánico de 60x60 cm, recibido con adhesivo cementoso C2 TE.",
  quantity: `${i}.250`,
  unitPrice: "12.5000",
  measurements: [],
  decomposition: [],
  children: [],
});

/** 750 items in 3 chapters: well over INLINE_MAX_BYTES, so it is parsed in a worker thread. */
function largeBudget(code: string): Bc3Budget {
  const chapters: Bc3Node[] = [1, 2, 3].map((c) => ({
    code: `C${c}`,
    kind: "chapter",
    unit: "",
    summary: `Capítulo ${c}`,
    longText: "",
    quantity: "1",
    unitPrice: "0",
    measurements: [],
    decomposition: [],
    children: Array.from({ length: 250 }, (_, i) => item(c, i + 1)),
  }));
  return { code, name: "Grande", charset: "ANSI", root: { code, summary: "Grande", children: chapters } };
}

const importFile = (file: Buffer) =>
  t.as(t.adminToken, { method: "POST", url: "/api/v1/budgets/import-bc3", ...multipartFile(file) });

describe("BC3 imports: large files and values the budget cannot hold", () => {
  it("imports a large file (parsed in a worker thread) with every item and amount", async () => {
    const code = uniqueCode("BIG");
    const file = writeBc3(largeBudget(code));
    expect(file.length).toBeGreaterThan(INLINE_MAX_BYTES);
    const res = await importFile(file);
    expect(res.statusCode, res.body).toBe(201);
    // sum over 3 chapters of sum_{i=1..250} (i + 0.25) x 12.50, each rounded to cents
    let total = 0;
    for (let i = 1; i <= 250; i++) total += Math.round((i + 0.25) * 12.5 * 100);
    expect(res.json()).toMatchObject({ code, pem: ((3 * total) / 100).toFixed(2) });
    const items = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/budget-items?budget_id=${res.json().id}&limit=1`,
    });
    expect(items.json().total).toBe(753);
  });

  it("reports the line of every problem of a large file, found in the worker", async () => {
    const text = writeBc3(largeBudget(uniqueCode("BAD")))
      .toString("latin1")
      .split("\r\n");
    const at = text.findIndex((l) => l.startsWith("~C|E2.7|"));
    text[at] = "~C|E2.7|m2|Partida|12345678901234567890|30/02/26|0|";
    const res = await importFile(Buffer.from(text.join("\r\n"), "latin1"));
    const body = expectProblem(res, 400);
    expect(body.errors).toEqual([
      {
        path: `line ${at + 1}`,
        message: 'date of E2.7 is not a valid date (DDMMYYYY or DDMMYY): "30/02/26"',
      },
      {
        path: `line ${at + 1}`,
        message: 'price of E2.7 is too large (at most 14 integer digits): "12345678901234567890"',
      },
    ]);
  });

  it("refuses a 5-decimal price and a chain deeper than the budget allows, with their lines", async () => {
    const small = [
      "~V|X|FIEBDC-3/2016|Test||ANSI||",
      "~C|R##||Root|0||0|",
      "~D|R##|I1\\1\\1\\|",
      "~C|I1|m|Item|10.12345||0|",
    ];
    const priced = expectProblem(await importFile(Buffer.from(small.join("\r\n"), "latin1")), 400);
    expect(priced.errors).toEqual([
      { path: "line 4", message: 'price of I1 has more than 4 decimals: "10.12345"' },
    ]);

    const chain = ["~V|X|FIEBDC-3/2016|Test||ANSI||", "~C|R##||Root|0||0|", "~D|R##|C1#\\1\\1\\|"];
    for (let i = 1; i <= 5000; i++) {
      chain.push(`~C|C${i}#||Chapter ${i}|0||0|`, `~D|C${i}#|C${i + 1}#\\1\\1\\|`);
    }
    chain.push("~C|C5001#||Last|0||0|");
    const deep = expectProblem(await importFile(Buffer.from(chain.join("\r\n"), "latin1")), 400);
    expect(deep.errors).toEqual([{ path: "line 23", message: "C11 is nested deeper than 10 levels" }]);
  });
});
