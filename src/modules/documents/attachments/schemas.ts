import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { uuidParam } from "../../../platform/ids.js";
import type { AttachmentRow } from "./repository.js";

export const attachmentOut = z.object({
  id: z.uuid(),
  file_name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string().describe("SHA-256 of the content, hex"),
  created_at: z.string(),
});
export const attachmentParams = z.object({ id: uuidParam, attachment_id: uuidParam });

export function toAttachmentOut(a: AttachmentRow): z.infer<typeof attachmentOut> {
  return {
    id: a.id,
    file_name: a.fileName,
    content_type: a.contentType,
    size_bytes: a.sizeBytes,
    sha256: a.sha256,
    created_at: iso(a.createdAt),
  };
}
