import { and, asc, count, eq, getTableColumns, ilike, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { preparedByShape } from "../../../platform/db/prepared.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { productFamilies, products } from "../tables.js";

export type ProductInsert = typeof products.$inferInsert;

/** A product with the code of its family (null when it has none). */
export type ProductView = typeof products.$inferSelect & { familyCode: string | null };

export interface ProductListFilter {
  /** The one company listed (companyScopeId: the caller's scope and the company asked for); undefined: all. */
  companyId?: string;
  search?: string;
  familyCode?: string;
  /** undefined: active only unless includeInactive; true/false: exactly that state. */
  isActive?: boolean;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

const productView = { ...getTableColumns(products), familyCode: productFamilies.code };

function selectProducts(db: Db) {
  return db
    .select(productView)
    .from(products)
    .leftJoin(productFamilies, eq(productFamilies.id, products.familyId));
}

export async function findProduct(db: Db, id: string): Promise<ProductView | undefined> {
  const [row] = await selectProducts(db).where(eq(products.id, id)).limit(1);
  return row;
}

export function findProductsByIds(db: Db, ids: string[]): Promise<ProductView[]> {
  if (!ids.length) return Promise.resolve([]);
  return selectProducts(db).where(inArray(products.id, [...new Set(ids)]));
}

/** Ledger accounts of a family (products inherit them). */
export async function familyAccounts(db: Db, familyIds: string[]) {
  if (!familyIds.length)
    return new Map<string, { salesAccount: string | null; purchasesAccount: string | null }>();
  const rows = await db
    .select({
      id: productFamilies.id,
      salesAccount: productFamilies.salesAccount,
      purchasesAccount: productFamilies.purchasesAccount,
    })
    .from(productFamilies)
    .where(inArray(productFamilies.id, [...new Set(familyIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** At most two matches: a reference is unique per company, not across companies. */
export function findProductsByReference(db: Db, reference: string, scope?: SQL): Promise<ProductView[]> {
  return selectProducts(db)
    .where(and(scope, eq(products.reference, reference)))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(2);
}

export async function referenceTaken(db: Db, companyId: string, reference: string, exceptId?: string) {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.companyId, companyId),
        eq(products.reference, reference),
        exceptId ? ne(products.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Which conditions a product list has: its SQL's shape (the values are placeholders). */
function productListShape(f: ProductListFilter): string {
  const active = f.isActive !== undefined || !f.includeInactive;
  return [f.companyId, active, f.familyCode !== undefined, f.search].map((v) => (v ? "1" : "0")).join("");
}

function productConditions(shape: string) {
  return and(
    shape[0] === "1" ? eq(products.companyId, sql.placeholder("companyId")) : undefined,
    shape[1] === "1" ? eq(products.isActive, sql.placeholder("isActive")) : undefined,
    shape[2] === "1" ? eq(productFamilies.code, sql.placeholder("familyCode")) : undefined,
    shape[3] === "1"
      ? or(
          ilike(products.reference, sql.placeholder("pattern")),
          ilike(products.description, sql.placeholder("pattern")),
        )
      : undefined,
  );
}

const productPageOfShape = preparedByShape("cuadra_product_page", (db, shape) =>
  selectProducts(db)
    .where(productConditions(shape))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
);

const productCountOfShape = preparedByShape("cuadra_product_count", (db, shape) =>
  db
    .select({ total: count() })
    .from(products)
    .leftJoin(productFamilies, eq(productFamilies.id, products.familyId))
    .where(productConditions(shape)),
);

/** A page of products and the exact total, as statements prepared per filter shape. */
export async function listProducts(db: Db, f: ProductListFilter) {
  const shape = productListShape(f);
  const values = {
    companyId: f.companyId,
    isActive: f.isActive ?? true,
    familyCode: f.familyCode,
    pattern: f.search ? likePattern(f.search) : undefined,
    limit: f.limit,
    offset: f.offset,
  };
  return paginate(
    db,
    () => productPageOfShape(db, shape, values),
    () => productCountOfShape(db, shape, values),
  );
}

export async function insertProduct(db: Db, values: ProductInsert) {
  const [row] = await db.insert(products).values(values).returning({ id: products.id });
  return row.id;
}

export async function updateProduct(db: Db, id: string, values: Partial<ProductInsert>) {
  await db.update(products).set(values).where(eq(products.id, id));
}
