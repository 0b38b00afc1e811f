import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import type { CompanyLogoRow } from "./repository.js";

export const logoOut = z.object({
  company_id: z.uuid(),
  content_type: z.enum(["image/png", "image/jpeg"]),
  size_bytes: z.number().int(),
  sha256: z.string().describe("SHA-256 of the file, hex"),
  width: z.number().int().describe("Pixels"),
  height: z.number().int().describe("Pixels"),
  updated_at: z.string(),
});

export function toLogoOut(l: CompanyLogoRow): z.infer<typeof logoOut> {
  return {
    company_id: l.companyId,
    content_type: l.contentType as "image/png" | "image/jpeg",
    size_bytes: l.sizeBytes,
    sha256: l.sha256,
    width: l.width,
    height: l.height,
    updated_at: iso(l.updatedAt),
  };
}
