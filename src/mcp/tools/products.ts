import { z } from "zod";
import * as products from "../../modules/products/index.js";
import { productOut, toProductOut } from "../../modules/products/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { companyIdArg, defineTool, limitArg, offsetArg, pageOf, toolArgs, uuidArg } from "../tool-kit.js";

const access = { scope: "mcp:products", permission: "products:leer" };
const notFoundHint = "Look the product up with list_products (search by reference or description).";

export const listProducts = defineTool({
  name: "list_products",
  title: "List products",
  description:
    "Lists the products and services of the companies this token can see, oldest first, one page at a " +
    "time, with prices (decimal strings without VAT) and VAT rate. Filter by search (reference or " +
    "description), family_code and is_active. Returns {items, total, limit, offset}; call again with " +
    "offset + limit for the next page.",
  access,
  notFoundHint,
  input: toolArgs({
    search: z
      .string()
      .trim()
      .max(200, { message: "search is at most 200 characters" })
      .optional()
      .describe("Text contained in the reference or the description"),
    family_code: z
      .string()
      .trim()
      .min(1, { message: "family_code must not be empty" })
      .max(30, { message: "family_code is at most 30 characters" })
      .optional()
      .describe("Only products of the family with this code"),
    is_active: z
      .boolean()
      .optional()
      .describe("true: active products only; false: deactivated ones only; omitted: active only"),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(productOut),
  async run(ctx, args) {
    const { rows, total } = await products.listProducts(ctx, {
      search: args.search || undefined,
      familyCode: args.family_code,
      isActive: args.is_active,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toProductOut), total, limit: args.limit, offset: args.offset };
  },
});

export const getProduct = defineTool({
  name: "get_product",
  title: "Product detail",
  description:
    "One product by product_id or by reference (give exactly one of them). A reference is unique in a " +
    "company: when several companies use it, add company_id.",
  access,
  notFoundHint,
  input: toolArgs({
    product_id: uuidArg("product_id", "list_products").optional(),
    reference: z
      .string()
      .trim()
      .min(1, { message: "reference must not be empty" })
      .max(50, { message: "reference is at most 50 characters" })
      .optional()
      .describe("The product's reference (its code), e.g. HORM-25"),
    company_id: companyIdArg,
  }),
  output: productOut,
  async run(ctx, args) {
    if ((args.product_id === undefined) === (args.reference === undefined)) {
      throw new BadRequestError("Give exactly one of product_id and reference", [
        { path: "product_id", message: "or reference is required, not both" },
      ]);
    }
    const row = args.product_id
      ? await products.getProduct(ctx, { id: args.product_id })
      : await products.getProduct(ctx, { reference: args.reference!, companyId: args.company_id });
    return toProductOut(row);
  },
});
