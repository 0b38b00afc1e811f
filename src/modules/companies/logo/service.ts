import { createHash } from "node:crypto";
import type { Db } from "../../../platform/db/client.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../../platform/http/errors.js";
import { getCompany } from "../service.js";
import { checkLogo, LOGO_MAX_BYTES } from "./image.js";
import * as repo from "./repository.js";

export async function uploadLogo(ctx: AuthedCtx, companyId: string, content: Buffer) {
  await getCompany(ctx, companyId);
  if (content.length === 0)
    throw new BadRequestError("The uploaded logo is empty", [{ path: "body.file", message: "is empty" }]);
  if (content.length > LOGO_MAX_BYTES) throw new PayloadTooLargeError(LOGO_MAX_BYTES);
  const image = await checkLogo(content);
  if (!image.ok) throw new UnsupportedMediaTypeError(image.reason);
  return repo.saveLogo(ctx.db, {
    companyId,
    contentType: image.contentType,
    content,
    sizeBytes: content.length,
    sha256: createHash("sha256").update(content).digest("hex"),
    width: image.width,
    height: image.height,
  });
}

export async function getLogo(ctx: AuthedCtx, companyId: string) {
  await getCompany(ctx, companyId);
  const logo = await repo.findLogo(ctx.db, companyId);
  if (!logo) throw new NotFoundError("Logo");
  return logo;
}

export async function removeLogo(ctx: AuthedCtx, companyId: string) {
  await getCompany(ctx, companyId);
  if (!(await repo.deleteLogo(ctx.db, companyId))) throw new NotFoundError("Logo");
}

/** For printed documents of other modules (the caller has already checked it may see the company). */
export async function findCompanyLogo(db: Db, companyId: string) {
  const logo = await repo.findLogo(db, companyId);
  return logo ? { contentType: logo.contentType, content: logo.content } : null;
}
