import PDFDocument from "pdfkit";
import { imageTypeOf } from "../../../platform/file-types.js";

/** A logo is printed small: 1 MB is plenty for a PNG or JPEG letterhead. */
export const LOGO_MAX_BYTES = 1024 * 1024;

export type LogoCheck =
  | { ok: true; contentType: "image/png" | "image/jpeg"; width: number; height: number }
  | { ok: false; reason: string };

/** pdfkit opens images with openImage (not in its type definitions): the embeddable image and its pixels. */
interface ImageOpener {
  openImage(src: Buffer): { width: number; height: number };
}

/** Embeds the image in a throw-away PDF: what the certification PDF will do, so a broken file fails here. */
function embeddedSize(content: Buffer): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false });
    doc.on("data", () => {});
    doc.on("error", reject);
    try {
      const image = (doc as unknown as ImageOpener).openImage(content);
      doc.addPage({ size: [image.width, image.height], margin: 0 });
      doc.image(image as unknown as Buffer, 0, 0);
      doc.on("end", () => resolve({ width: image.width, height: image.height }));
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/** The logo's type from its magic bytes (the file name and declared type are not trusted) and its size in pixels. */
export async function checkLogo(content: Buffer): Promise<LogoCheck> {
  const contentType = imageTypeOf(content);
  if (!contentType)
    return { ok: false, reason: "The logo must be a PNG or JPEG image (checked by its content)" };
  try {
    const { width, height } = await embeddedSize(content);
    if (width < 1 || height < 1) return { ok: false, reason: "The logo image has no pixels" };
    return { ok: true, contentType, width, height };
  } catch {
    const kind = contentType === "image/png" ? "PNG" : "JPEG";
    return { ok: false, reason: `The logo starts like a ${kind} image but cannot be read as one` };
  }
}
