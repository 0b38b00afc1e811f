import { canSeeCompany, companyFilter, companyScopeId } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { findFamilyByCode } from "../families/repository.js";
import { assertLedgerAccounts } from "../ledger-accounts.js";
import { products } from "../tables.js";
import type { ProductInsert, ProductView } from "./repository.js";
import * as repo from "./repository.js";

export type ProductValues = Partial<
  Pick<
    ProductInsert,
    | "reference"
    | "description"
    | "salePrice"
    | "costPrice"
    | "vatRate"
    | "salesAccount"
    | "purchasesAccount"
    | "isActive"
  >
> & {
  /** Code of a family of the product's company; null removes the family. */
  familyCode?: string | null;
};

export interface ProductListFilters {
  companyId?: string;
  search?: string;
  familyCode?: string;
  /** Exactly this state when given; otherwise inactive ones only with includeInactive. */
  isActive?: boolean;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export type ProductLookup = { id: string } | { reference: string; companyId?: string };

/** A product by id, or by reference (unique per company; ambiguous across companies -> 400). */
export async function getProduct(ctx: AuthedCtx, lookup: ProductLookup): Promise<ProductView> {
  if ("id" in lookup) {
    const row = await repo.findProduct(ctx.db, lookup.id);
    if (!row || !canSeeCompany(ctx.actor, row.companyId)) throw new NotFoundError("Product");
    return row;
  }
  const scope = companyFilter(ctx.actor, products.companyId, lookup.companyId);
  const rows = await repo.findProductsByReference(ctx.db, lookup.reference, scope);
  if (rows.length === 0) throw new NotFoundError("Product");
  if (rows.length > 1)
    throw new BadRequestError(`Several companies have a product ${lookup.reference}: give the company`, [
      { path: "company_id", message: "is required to look a product up by reference" },
    ]);
  return rows[0];
}

/**
 * Products by id with the ledger accounts they post to (their own, else their family's), for the
 * documents engine; those of companies the caller cannot see are left out.
 */
export async function getProductsForDocuments(ctx: AuthedCtx, ids: string[]) {
  const rows = (await repo.findProductsByIds(ctx.db, ids)).filter((p) =>
    canSeeCompany(ctx.actor, p.companyId),
  );
  const families = await repo.familyAccounts(
    ctx.db,
    rows.flatMap((p) => (p.familyId ? [p.familyId] : [])),
  );
  return new Map(
    rows.map((p) => {
      const family = p.familyId ? families.get(p.familyId) : undefined;
      return [
        p.id,
        {
          ...p,
          salesAccount: p.salesAccount ?? family?.salesAccount ?? null,
          purchasesAccount: p.purchasesAccount ?? family?.purchasesAccount ?? null,
        },
      ];
    }),
  );
}

export function listProducts(ctx: AuthedCtx, f: ProductListFilters) {
  return repo.listProducts(ctx.db, {
    companyId: companyScopeId(ctx.actor, f.companyId),
    search: f.search,
    familyCode: f.familyCode,
    isActive: f.isActive,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

async function familyIdOf(ctx: AuthedCtx, companyId: string, code: string | null) {
  if (code === null) return null;
  const family = await findFamilyByCode(ctx.db, companyId, code);
  if (!family)
    throw new BadRequestError(`Product family ${code} does not exist in this company`, [
      { path: "family_code", message: "is not a family of the company" },
    ]);
  return family.id;
}

async function assertReferenceFree(ctx: AuthedCtx, companyId: string, reference: string, exceptId?: string) {
  if (await repo.referenceTaken(ctx.db, companyId, reference, exceptId))
    throw new ConflictError(`A product with reference ${reference} already exists in this company`);
}

async function toColumns(ctx: AuthedCtx, companyId: string, values: ProductValues) {
  const { familyCode, ...rest } = values;
  const familyId = familyCode === undefined ? undefined : await familyIdOf(ctx, companyId, familyCode);
  return { ...rest, familyId };
}

export async function createProduct(
  ctx: AuthedCtx,
  input: ProductValues & { reference: string; description: string; companyId?: string },
) {
  const { companyId: requested, ...values } = input;
  assertLedgerAccounts(values);
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertReferenceFree(ctx, companyId, input.reference);
  const id = await repo.insertProduct(ctx.db, {
    ...(await toColumns(ctx, companyId, values)),
    reference: input.reference,
    description: input.description,
    companyId,
  });
  return getProduct(ctx, { id });
}

export async function updateProduct(ctx: AuthedCtx, id: string, values: ProductValues) {
  const current = await getProduct(ctx, { id });
  assertLedgerAccounts(values);
  if (values.reference !== undefined && values.reference !== current.reference)
    await assertReferenceFree(ctx, current.companyId, values.reference, id);
  await repo.updateProduct(ctx.db, id, await toColumns(ctx, current.companyId, values));
  return getProduct(ctx, { id });
}

export async function deactivateProduct(ctx: AuthedCtx, id: string) {
  await getProduct(ctx, { id });
  await repo.updateProduct(ctx.db, id, { isActive: false });
}
