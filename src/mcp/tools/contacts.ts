import { z } from "zod";
import * as contacts from "../../modules/clients/index.js";
import { CONTACT_TYPES, contactOut, toContactOut } from "../../modules/clients/index.js";
import { defineTool, limitArg, offsetArg, pageOf, toolArgs, uuidArg } from "../tool-kit.js";

const access = { scope: "mcp:contacts", permission: "clients:leer" };
const notFoundHint = "Look the contact up with list_contacts (search by name, code, tax ID or e-mail).";

export const listContacts = defineTool({
  name: "list_contacts",
  title: "List customers and suppliers",
  description:
    "Lists the contacts (customers and suppliers) of the companies this token can see, oldest first, " +
    "one page at a time. Filter by contact_type and search (matches code, name, legal name, tax ID and " +
    "e-mail). Returns full records {items, total, limit, offset}; call again with offset + limit for " +
    "the next page. Use get_contact for one contact by id.",
  access,
  notFoundHint,
  input: toolArgs({
    contact_type: z
      .enum(CONTACT_TYPES, { message: "contact_type must be customer, supplier or both" })
      .optional()
      .describe("customer or supplier (each also matches contacts of type both), or both"),
    search: z
      .string()
      .trim()
      .max(200, { message: "search is at most 200 characters" })
      .optional()
      .describe("Text contained in the code, name, legal name, tax ID or e-mail"),
    is_active: z
      .boolean()
      .optional()
      .describe("true: active contacts only; false: deactivated ones only; omitted: active only"),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(contactOut),
  async run(ctx, args) {
    const { rows, total } = await contacts.listContacts(ctx, {
      contactType: args.contact_type,
      search: args.search || undefined,
      isActive: args.is_active,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toContactOut), total, limit: args.limit, offset: args.offset };
  },
});

export const getContact = defineTool({
  name: "get_contact",
  title: "Contact detail",
  description:
    "One customer or supplier by its id, with every field (tax ID, address, payment terms, agent, " +
    "state). Find the id with list_contacts.",
  access,
  notFoundHint,
  input: toolArgs({ contact_id: uuidArg("contact_id", "list_contacts") }),
  output: contactOut,
  async run(ctx, args) {
    return toContactOut(await contacts.getContact(ctx, args.contact_id));
  },
});
