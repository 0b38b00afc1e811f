import { allQueries, inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import {
  BadRequestError,
  ConflictError,
  type FieldError,
  ForbiddenError,
  NotFoundError,
} from "../../../platform/http/errors.js";
import { findCompany, findCompanyLogo } from "../../companies/index.js";
import {
  assertBudgetVisible,
  loadBudget,
  loadBudgetForWrite,
  visibleBudgetsCondition,
} from "../budget-access.js";
import { type CertificationState, certifications } from "../tables.js";
import type { CertificationRow, LineQuantity } from "./repository.js";
import * as repo from "./repository.js";
import { CERTIFICATION_TRANSITIONS, NEEDS_VALIDAR, VALIDATE_PERMISSION } from "./transitions.js";
import { buildCertificationView, type CertificationView } from "./view.js";

export interface CertificationInput {
  periodStart: string;
  periodEnd: string;
  notes?: string;
  lines: LineQuantity[];
}

/** The data printed on the document; fields left out stay as they are. */
export interface CertificationDocumentInput {
  issuePlace?: string;
  issueDate?: string | null;
  retentionPct?: string | null;
}

export async function listCertifications(ctx: Ctx, filter: repo.CertificationFilter) {
  const scope = visibleBudgetsCondition(ctx.actor, certifications.budgetId);
  return repo.listCertifications(ctx.db, { ...filter, scope });
}

async function viewOf(ctx: Ctx, certification: CertificationRow): Promise<CertificationView> {
  const [budget, items, ownLines, previous] = await allQueries(ctx.db, [
    () => loadBudget(ctx.db, certification.budgetId, ctx.actor),
    () => repo.itemNodesOfBudget(ctx.db, certification.budgetId),
    () => repo.linesOf(ctx.db, certification.id),
    () => repo.previousValidatedLines(ctx.db, certification.budgetId, certification.number),
  ]);
  return buildCertificationView({ certification, budget, items, ownLines, previous });
}

export async function getCertification(ctx: Ctx, id: string): Promise<CertificationView> {
  const certification = await repo.findCertification(ctx.db, id);
  if (!certification) throw new NotFoundError("Certification");
  await assertBudgetVisible(ctx.db, certification.budgetId, ctx.actor, "Certification");
  return viewOf(ctx, certification);
}

/** Who issues the certification: the budget's company, with its logo when it has one. */
export interface Contractor {
  name: string;
  legalName: string;
  taxId: string;
  address: string;
  postalCode: string;
  city: string;
  province: string;
  logo: Buffer | null;
}

/** What the certification document prints: its figures and the contractor (null when the budget has no company). */
export async function getCertificationDocument(ctx: Ctx, id: string) {
  const view = await getCertification(ctx, id);
  const companyId = view.budget.companyId;
  const company = companyId ? await findCompany(ctx.db, companyId) : null;
  const logo = company ? await findCompanyLogo(ctx.db, company.id) : null;
  const contractor: Contractor | null = company && {
    name: company.name,
    legalName: company.legalName,
    taxId: company.taxId,
    address: company.address,
    postalCode: company.postalCode,
    city: company.city,
    province: company.province,
    logo: logo?.content ?? null,
  };
  return { view, contractor };
}

/** Each line must point at a leaf item (kind item) of the budget, once. */
async function checkLines(db: Ctx["db"], budgetId: string, lines: readonly LineQuantity[]) {
  const found = new Map(
    (
      await repo.itemKinds(
        db,
        lines.map((l) => l.budgetItemId),
      )
    ).map((i) => [i.id, i]),
  );
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  lines.forEach((line, index) => {
    const path = `body.lines.${index}.budget_item_id`;
    const item = found.get(line.budgetItemId);
    if (seen.has(line.budgetItemId)) errors.push({ path, message: "is listed twice" });
    else if (!item || item.budgetId !== budgetId)
      errors.push({ path, message: "is not an item of the certification's budget" });
    else if (item.kind !== "item") errors.push({ path, message: "is a chapter; certify its items" });
    seen.add(line.budgetItemId);
  });
  if (errors.length) throw new BadRequestError("Some certification lines are not valid", errors);
}

export async function createCertification(ctx: AuthedCtx, input: CertificationInput & { budgetId: string }) {
  const id = await inTransaction(ctx.db, async (tx) => {
    const budget = await loadBudgetForWrite(tx, input.budgetId, ctx.actor);
    if (budget.estado !== "en_ejecucion") {
      throw new ConflictError(`Certifications can only be created while the budget is en_ejecucion`, {
        estado: budget.estado,
      });
    }
    await checkLines(tx, budget.id, input.lines);
    const number = (await repo.lastCertificationNumber(tx, budget.id)) + 1;
    const row = await repo.insertCertification(tx, {
      budgetId: budget.id,
      number,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      notes: input.notes ?? "",
      createdBy: ctx.actor.userId,
    });
    await repo.insertLines(tx, row.id, input.lines);
    return row.id;
  });
  return getCertification(ctx, id);
}

/** The certification and its budget, both locked for the transaction; 409 when either is read-only. */
async function lockForWrite(tx: Ctx["db"], id: string, actor: Ctx["actor"]) {
  const found = await repo.findCertification(tx, id);
  if (!found) throw new NotFoundError("Certification");
  const budget = await loadBudgetForWrite(tx, found.budgetId, actor);
  // Deleted by a concurrent request while this one waited for the budget's lock: gone, not a crash.
  const certification = await repo.findCertification(tx, id, { lock: true });
  if (!certification) throw new NotFoundError("Certification");
  if (certification.estado === "validada") {
    throw new ConflictError("A validated certification can no longer be changed", { estado: "validada" });
  }
  return { certification, budget };
}

function requireDraft(certification: CertificationRow, action: string) {
  if (certification.estado !== "borrador") {
    throw new ConflictError(`Only a certification in borrador can be ${action}`, {
      estado: certification.estado,
    });
  }
}

export async function updateCertification(ctx: AuthedCtx, id: string, input: CertificationInput) {
  await inTransaction(ctx.db, async (tx) => {
    const { certification } = await lockForWrite(tx, id, ctx.actor);
    requireDraft(certification, "edited");
    await checkLines(tx, certification.budgetId, input.lines);
    await repo.updateCertification(tx, id, {
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      notes: input.notes ?? certification.notes,
    });
    await repo.replaceLines(tx, id, input.lines);
  });
  return getCertification(ctx, id);
}

/**
 * Sets where and when the certification is issued and its own retention. Not once validada (409);
 * the retention changes a figure, so only in borrador (409).
 */
export async function updateCertificationDocument(
  ctx: AuthedCtx,
  id: string,
  input: CertificationDocumentInput,
) {
  await inTransaction(ctx.db, async (tx) => {
    const { certification } = await lockForWrite(tx, id, ctx.actor);
    if (input.retentionPct !== undefined) requireDraft(certification, "given another retention");
    if (input.issueDate && input.issueDate < certification.periodStart) {
      throw new BadRequestError("The issue date is before the certified period", [
        { path: "body.issue_date", message: `is before period_start ${certification.periodStart}` },
      ]);
    }
    await repo.updateCertification(tx, id, input);
  });
  return getCertification(ctx, id);
}

export async function deleteCertification(ctx: AuthedCtx, id: string) {
  await inTransaction(ctx.db, async (tx) => {
    const { certification } = await lockForWrite(tx, id, ctx.actor);
    requireDraft(certification, "deleted");
    const last = await repo.lastCertificationNumber(tx, certification.budgetId);
    if (certification.number !== last) {
      throw new ConflictError(`Only the newest certification of the budget (number ${last}) can be deleted`, {
        newest_number: last,
      });
    }
    await repo.deleteCertification(tx, id);
  });
}

export async function changeCertificationEstado(ctx: AuthedCtx, id: string, to: CertificationState) {
  if (NEEDS_VALIDAR.includes(to) && !ctx.actor.permissions.has(VALIDATE_PERMISSION)) {
    throw new ForbiddenError(`Requires permission ${VALIDATE_PERMISSION} to set estado ${to}`);
  }
  await inTransaction(ctx.db, async (tx) => {
    const { certification } = await lockForWrite(tx, id, ctx.actor);
    const from = certification.estado;
    const allowed = CERTIFICATION_TRANSITIONS[from];
    if (!allowed.includes(to)) {
      throw new ConflictError(`A certification in ${from} cannot move to ${to}`, { estado: from, allowed });
    }
    if (to !== "validada") {
      await repo.updateCertification(tx, id, { estado: to });
      return;
    }
    if (certification.number > 1) {
      const before = await repo.findByNumber(tx, certification.budgetId, certification.number - 1);
      if (before && before.estado !== "validada") {
        throw new ConflictError(
          `Certification ${before.number} must be validated before certification ${certification.number}`,
          { blocking_number: before.number, blocking_estado: before.estado },
        );
      }
    }
    await freezeCarriedLines(tx, certification);
    await repo.updateCertification(tx, id, {
      estado: "validada",
      validatedBy: ctx.actor.userId,
      validatedAt: new Date(),
    });
  });
  return getCertification(ctx, id);
}

/**
 * Stores the lines carried forward from the previous validated certification, so a validated
 * certification holds every item certified to date and the next one can read its previous figures.
 */
async function freezeCarriedLines(tx: Ctx["db"], certification: CertificationRow) {
  const previous = await repo.previousValidatedLines(tx, certification.budgetId, certification.number);
  if (!previous) return;
  const own = new Set((await repo.linesOf(tx, certification.id)).map((l) => l.budgetItemId));
  await repo.insertLines(
    tx,
    certification.id,
    previous.lines.filter((l) => !own.has(l.budgetItemId)),
  );
}
