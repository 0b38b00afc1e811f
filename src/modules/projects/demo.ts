import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import { uuidv7 } from "../../platform/ids.js";
import { dec, sum, toMoney, toQuantity } from "../../platform/money.js";
import { cifControlDigit } from "../../platform/tax-id.js";
import {
  DEMO_BUDGET,
  DEMO_CERTIFICATIONS,
  DEMO_CHAPTERS,
  DEMO_CODE,
  DEMO_COST_FACTORS,
  DEMO_COST_PROGRESS,
  DEMO_SITE_COSTS,
} from "./demo-data.js";
import {
  activities,
  activityItems,
  budgetConcepts,
  budgetItemMeasurements,
  budgetItems,
  budgetStatusHistory,
  budgets,
  certificationLines,
  certifications,
  costEntries,
} from "./tables.js";

type ItemRow = typeof budgetItems.$inferInsert & { id: string; quantity: string; amount: string };

const conceptOf = (row: ItemRow): typeof budgetConcepts.$inferInsert => ({
  id: row.conceptId,
  budgetId: row.budgetId,
  kind: row.kind,
  code: row.code,
  unit: row.unit,
  summary: row.summary,
  unitPrice: row.unitPrice,
});
type MeasurementRow = typeof budgetItemMeasurements.$inferInsert;

/** A valid-looking CIF (B + 7 digits + control digit), the same for the same supplier. */
function supplierCif(name: string): string {
  const digits = (BigInt(`0x${createHash("sha256").update(name).digest("hex").slice(0, 12)}`) % 10_000_000n)
    .toString()
    .padStart(7, "0");
  return `B${digits}${cifControlDigit(digits)}`;
}

/** "label|units|length|width|height" lines; their products (blank = 1) add up to the item's quantity. */
function measurements(itemId: string, spec: string): { rows: MeasurementRow[]; quantity: string } {
  const rows = spec.split(";").map((line, position): MeasurementRow => {
    const [label, units, length, width, height] = line.split("|").map((f) => f.trim());
    const value = (f: string) => (f === "" || f === undefined ? null : f);
    return {
      itemId,
      position,
      label,
      units: value(units),
      length: value(length),
      width: value(width),
      height: value(height),
    };
  });
  const product = (r: MeasurementRow) =>
    [r.units, r.length, r.width, r.height].reduce((acc, f) => acc.times(f ?? 1), dec(1));
  return { rows, quantity: toQuantity(sum(rows.map(product))) };
}

function buildTree(budgetId: string) {
  const chapters: ItemRow[] = [];
  const items: ItemRow[][] = [];
  const measurementRows: MeasurementRow[] = [];
  DEMO_CHAPTERS.forEach((chapter, c) => {
    const chapterId = uuidv7();
    const code = String(c + 1).padStart(2, "0");
    chapters.push({
      id: chapterId,
      budgetId,
      conceptId: chapterId,
      kind: "chapter",
      code,
      position: c,
      summary: chapter.summary,
      quantity: "0",
      amount: "0",
    });
    items.push(
      chapter.items.map(([unit, summary, unitPrice, spec], i) => {
        const id = uuidv7();
        const measured = measurements(id, spec);
        measurementRows.push(...measured.rows);
        const amount = toMoney(dec(measured.quantity).times(unitPrice));
        const itemCode = `${code}.${String(i + 1).padStart(2, "0")}`;
        return {
          id,
          budgetId,
          conceptId: id,
          parentId: chapterId,
          kind: "item",
          code: itemCode,
          position: i,
          unit,
          summary,
          unitPrice,
          quantity: measured.quantity,
          amount,
        };
      }),
    );
  });
  return { chapters, items, measurementRows };
}

/** Two activities per chapter, each linked to half of its items; progress as in the last certification. */
function buildActivities(
  budgetId: string,
  chapters: ItemRow[],
  items: ItemRow[][],
  responsible: string | null,
) {
  const lastProgress = DEMO_CERTIFICATIONS[DEMO_CERTIFICATIONS.length - 1].progress;
  const rows: (typeof activities.$inferInsert)[] = [];
  const links: (typeof activityItems.$inferInsert)[] = [];
  const activityOfItem = new Map<string, string>();
  DEMO_CHAPTERS.forEach((data, c) => {
    const progress = dec(lastProgress[c] ?? "0").times(100);
    const half = Math.ceil(items[c].length / 2);
    const windows = [
      [data.start, data.middle],
      [data.middle, data.end],
    ];
    ["Ejecución", "Remates y control"].forEach((phase, a) => {
      const id = uuidv7();
      const started = progress.greaterThan(0);
      const finished = progress.equals(100);
      rows.push({
        id,
        budgetId,
        code: `A${chapters[c].code}.${a + 1}`,
        name: `${data.summary}: ${phase.toLowerCase()}`,
        plannedStart: windows[a][0],
        plannedEnd: windows[a][1],
        actualStart: started ? windows[a][0] : null,
        actualEnd: finished ? windows[a][1] : null,
        progressPct: progress.toFixed(2),
        responsibleUserId: responsible,
        estado: finished ? "completada" : started ? "en_curso" : "pendiente",
      });
      for (const item of items[c].slice(a * half, (a + 1) * half)) {
        links.push({ activityId: id, budgetItemId: item.id });
        activityOfItem.set(item.id, id);
      }
    });
  });
  return { rows, links, activityOfItem };
}

function buildCertifications(budgetId: string, items: ItemRow[][], userId: string | null) {
  const rows: (typeof certifications.$inferInsert)[] = [];
  const lines: (typeof certificationLines.$inferInsert)[] = [];
  DEMO_CERTIFICATIONS.forEach((cert, n) => {
    const id = uuidv7();
    const validated = cert.estado === "validada";
    rows.push({
      id,
      budgetId,
      number: n + 1,
      periodStart: cert.periodStart,
      periodEnd: cert.periodEnd,
      estado: cert.estado,
      issuePlace: cert.estado === "borrador" ? "" : "Logroño",
      issueDate: cert.estado === "borrador" ? null : cert.periodEnd,
      createdBy: userId,
      validatedBy: validated ? userId : null,
      validatedAt: validated ? new Date(`${cert.periodEnd}T12:00:00Z`) : null,
    });
    cert.progress.forEach((fraction, c) => {
      for (const item of items[c]) {
        lines.push({
          certificationId: id,
          budgetItemId: item.id,
          quantityToOrigin: toQuantity(dec(item.quantity).times(fraction)),
        });
      }
    });
  });
  return { rows, lines };
}

function buildCosts(
  budgetId: string,
  items: ItemRow[][],
  activityOfItem: Map<string, string>,
  userId: string | null,
) {
  const rows: (typeof costEntries.$inferInsert)[] = [];
  const withVat = (net: string) => ({ netAmount: net, vatAmount: toMoney(dec(net).times("0.21")) });
  const charged = DEMO_COST_PROGRESS.flatMap(([fraction, count], c) =>
    items[c].slice(0, count).map((item) => ({ item, fraction, c })),
  );
  charged.forEach(({ item, fraction, c }, k) => {
    const [category, supplier] = DEMO_CHAPTERS[c].costs[k % 2];
    const date = new Date(`${DEMO_CHAPTERS[c].start}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + ((k * 5) % 28));
    const net = toMoney(
      dec(item.amount)
        .times(fraction)
        .times(DEMO_COST_FACTORS[k % DEMO_COST_FACTORS.length]),
    );
    rows.push({
      budgetId,
      budgetItemId: item.id,
      activityId: activityOfItem.get(item.id) ?? null,
      date: date.toISOString().slice(0, 10),
      category,
      supplierName: supplier,
      supplierTaxId: supplierCif(supplier),
      documentNumber: `FV-2025/${String(rows.length + 1).padStart(4, "0")}`,
      concept: item.summary ?? "",
      ...withVat(net),
      createdBy: userId,
    });
  });
  for (const [date, category, supplier, concept, net] of DEMO_SITE_COSTS) {
    const documentNumber = `FV-2025/${String(rows.length + 1).padStart(4, "0")}`;
    rows.push({
      budgetId,
      date,
      category,
      supplierName: supplier,
      supplierTaxId: supplierCif(supplier),
      documentNumber,
      concept,
      ...withVat(net),
      createdBy: userId,
    });
  }
  return rows;
}

/**
 * Loads the demo building project (budget en_ejecucion, 8 chapters, 60 measured items, 16 activities,
 * 3 certifications and 40 cost entries) in one transaction. Idempotent: an existing demo is left alone.
 */
export async function loadProjectsDemo(
  db: Db,
  opts: { userId: string | null; companyId?: string | null },
): Promise<{ created: boolean; budgetId: string }> {
  return inTransaction(db, async (tx) => {
    const [existing] = await tx
      .select({ id: budgets.id })
      .from(budgets)
      .where(eq(budgets.code, DEMO_CODE))
      .limit(1);
    if (existing) return { created: false, budgetId: existing.id };

    const budgetId = uuidv7();
    const client = DEMO_BUDGET.clientName;
    await tx.insert(budgets).values({
      ...DEMO_BUDGET,
      id: budgetId,
      companyId: opts.companyId ?? null,
      clientTaxId: supplierCif(client),
      estado: "en_ejecucion",
      createdBy: opts.userId,
    });
    await tx.insert(budgetStatusHistory).values([
      { budgetId, fromEstado: "borrador", toEstado: "aprobado", userId: opts.userId },
      { budgetId, fromEstado: "aprobado", toEstado: "en_ejecucion", userId: opts.userId },
    ]);

    const { chapters, items, measurementRows } = buildTree(budgetId);
    // Each demo node places a concept of its own (same id): no code is placed twice.
    await tx.insert(budgetConcepts).values([...chapters, ...items.flat()].map(conceptOf));
    await tx.insert(budgetItems).values(chapters);
    await tx.insert(budgetItems).values(items.flat());
    await tx.insert(budgetItemMeasurements).values(measurementRows);

    const plan = buildActivities(budgetId, chapters, items, opts.userId);
    await tx.insert(activities).values(plan.rows);
    await tx.insert(activityItems).values(plan.links);

    const certs = buildCertifications(budgetId, items, opts.userId);
    await tx.insert(certifications).values(certs.rows);
    await tx.insert(certificationLines).values(certs.lines);

    await tx.insert(costEntries).values(buildCosts(budgetId, items, plan.activityOfItem, opts.userId));
    return { created: true, budgetId };
  });
}
