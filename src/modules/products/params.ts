import { z } from "zod";

/** Request fields products and families share. */

export const companyIdInput = z
  .uuid()
  .optional()
  .describe("Defaults to the caller's company, or the tenant's only one");
