import { inflateSync } from "node:zlib";
import { imageTypeOf } from "../../../platform/file-types.js";
import { loadPdfKit } from "../../../platform/pdfkit.js";

/** A logo is printed small: 1 MB and 4 megapixels are plenty for a letterhead. */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_MAX_PIXELS = 4_000_000;
const MAX_SIDE = 4000;

export type LogoCheck =
  | { ok: true; contentType: "image/png" | "image/jpeg"; width: number; height: number }
  | { ok: false; reason: string };

type Size = { width: number; height: number };

/**
 * PNG structure: IHDR first (13 bytes, valid depth and colour type), every chunk inside the file, an
 * IDAT, IEND last. Checked before any decoder sees the bytes (pdfkit's spends seconds on garbage).
 */
function pngSize(c: Buffer): Size | string {
  if (c.length < 8 + 25 + 12) return "The PNG image is truncated";
  if (c.readUInt32BE(8) !== 13 || c.toString("latin1", 12, 16) !== "IHDR")
    return "The PNG image has no IHDR header";
  const width = c.readUInt32BE(16);
  const height = c.readUInt32BE(20);
  const depth = c[24];
  const colour = c[25];
  const depths: Record<number, number[]> = {
    0: [1, 2, 4, 8, 16],
    2: [8, 16],
    3: [1, 2, 4, 8],
    4: [8, 16],
    6: [8, 16],
  };
  if (!depths[colour]?.includes(depth)) return "The PNG image has an invalid bit depth or colour type";
  let pos = 8;
  const data: Buffer[] = [];
  while (pos + 12 <= c.length) {
    const length = c.readUInt32BE(pos);
    const type = c.toString("latin1", pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type) || pos + 12 + length > c.length) return "The PNG image is damaged";
    if (type === "IDAT") data.push(c.subarray(pos + 8, pos + 8 + length));
    pos += 12 + length;
    if (type === "IEND") {
      if (data.length === 0 || pos !== c.length) return "The PNG image is damaged";
      return pixelsInflate(Buffer.concat(data), width, height, depth * CHANNELS[colour], c[28] === 1)
        ? { width, height }
        : "The PNG image's pixel data is damaged";
    }
  }
  return "The PNG image is truncated";
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Adam7: the passes' first column and row and their steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/** Bytes of the filtered scanlines: one filter byte per row (per row of each pass when interlaced). */
function scanlineBytes(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  return ADAM7.reduce(
    (total, [x, y, dx, dy]) => total + rows(Math.ceil((width - x) / dx), Math.ceil((height - y) / dy)),
    0,
  );
}

/** The compressed pixels inflate to exactly what the header promises (bounded: no zip bomb gets through). */
function pixelsInflate(
  data: Buffer,
  width: number,
  height: number,
  bitsPerPixel: number,
  interlaced: boolean,
) {
  if (width * height > LOGO_MAX_PIXELS) return true; // refused by its size afterwards, never inflated
  const expected = scanlineBytes(width, height, bitsPerPixel, interlaced);
  try {
    return inflateSync(data, { maxOutputLength: expected + 1 }).length === expected;
  } catch {
    return false;
  }
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG structure: the marker segments from SOI up to the frame header (SOFn), which gives the size. */
function jpegSize(c: Buffer): Size | string {
  let pos = 2;
  while (pos + 4 <= c.length) {
    if (c[pos] !== 0xff) return "The JPEG image is damaged";
    const marker = c[pos + 1];
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    const length = c.readUInt16BE(pos + 2);
    if (length < 2 || pos + 2 + length > c.length) return "The JPEG image is damaged";
    if (SOF.has(marker)) {
      if (length < 8) return "The JPEG image is damaged";
      return { height: c.readUInt16BE(pos + 5), width: c.readUInt16BE(pos + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return "The JPEG image has no frame header";
    pos += 2 + length;
  }
  return "The JPEG image is truncated";
}

/** pdfkit opens images with openImage (not in its type definitions). */
interface ImageOpener {
  openImage(src: Buffer): Size;
}

/** Embeds the image in a throw-away PDF, as the certification PDF will: a file pdfkit cannot use fails here. */
async function embeds(content: Buffer): Promise<boolean> {
  const PDFDocument = await loadPdfKit();
  return new Promise((resolve) => {
    const doc = new PDFDocument({ autoFirstPage: false });
    doc.on("data", () => {});
    doc.on("error", () => resolve(false));
    doc.on("end", () => resolve(true));
    try {
      const image = (doc as unknown as ImageOpener).openImage(content);
      doc.addPage({ size: [image.width, image.height], margin: 0 });
      doc.image(image as unknown as Buffer, 0, 0);
      doc.end();
    } catch {
      resolve(false);
    }
  });
}

/**
 * The logo's type from its magic bytes (the file name and declared type are not trusted), its
 * structure and size in pixels, and whether the PDF writer can embed it.
 */
export async function checkLogo(content: Buffer): Promise<LogoCheck> {
  const contentType = imageTypeOf(content);
  if (!contentType)
    return { ok: false, reason: "The logo must be a PNG or JPEG image (checked by its content)" };
  const size = contentType === "image/png" ? pngSize(content) : jpegSize(content);
  if (typeof size === "string") return { ok: false, reason: size };
  const { width, height } = size;
  if (width < 1 || height < 1) return { ok: false, reason: "The logo image has no pixels" };
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > LOGO_MAX_PIXELS) {
    return {
      ok: false,
      reason: `The logo is ${width} x ${height} pixels; at most ${LOGO_MAX_PIXELS / 1_000_000} megapixels and ${MAX_SIDE} per side`,
    };
  }
  if (!(await embeds(content))) {
    const kind = contentType === "image/png" ? "PNG" : "JPEG";
    return { ok: false, reason: `The logo starts like a ${kind} image but cannot be read as one` };
  }
  return { ok: true, contentType, width, height };
}
