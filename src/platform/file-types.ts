/** Uploaded files (cost entries, supplier invoices): invoices and delivery notes as PDF, photos, e-invoices, exports. */
export type AttachmentKind = "pdf" | "png" | "jpeg" | "xml" | "csv";

export const ATTACHMENT_CONTENT_TYPES: Record<AttachmentKind, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpeg: "image/jpeg",
  xml: "application/xml",
  csv: "text/csv",
};

const KIND_BY_EXTENSION: Record<string, AttachmentKind> = {
  pdf: "pdf",
  png: "png",
  jpg: "jpeg",
  jpeg: "jpeg",
  xml: "xml",
  csv: "csv",
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function isUtf8Text(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

function startsLikeXml(content: Buffer): boolean {
  const body = content.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? content.subarray(3) : content;
  const head = body.subarray(0, 1024).toString("latin1").trimStart();
  return head.startsWith("<");
}

const CONTENT_MATCHES: Record<AttachmentKind, (content: Buffer) => boolean> = {
  pdf: (c) => c.subarray(0, 5).toString("latin1") === "%PDF-",
  png: (c) => c.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE),
  jpeg: (c) => c.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE),
  xml: startsLikeXml,
  csv: isUtf8Text,
};

/** An image's content type from its magic bytes alone (PNG or JPEG), or undefined. */
export function imageTypeOf(content: Buffer): "image/png" | "image/jpeg" | undefined {
  if (CONTENT_MATCHES.png(content)) return "image/png";
  if (CONTENT_MATCHES.jpeg(content)) return "image/jpeg";
  return undefined;
}

export type Detection =
  | { ok: true; kind: AttachmentKind; contentType: string }
  | { ok: false; reason: string };

/** The file's type from its extension, confirmed by its bytes; either alone is not trusted. */
export function detectAttachmentType(fileName: string, content: Buffer): Detection {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? "";
  const kind = KIND_BY_EXTENSION[extension];
  if (!kind) {
    const allowed = Object.keys(KIND_BY_EXTENSION).join(", ");
    return {
      ok: false,
      reason: `Files of type "${extension || "(none)"}" are not accepted; allowed: ${allowed}`,
    };
  }
  if (!CONTENT_MATCHES[kind](content)) {
    return {
      ok: false,
      reason: `The file's content is not ${kind.toUpperCase()} as its name (.${extension}) says`,
    };
  }
  return { ok: true, kind, contentType: ATTACHMENT_CONTENT_TYPES[kind] };
}

/** The name as shown to users: no directories, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const printable = [...base].filter((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code >= 0x20 && code !== 0x7f;
  });
  return printable.join("").trim().slice(-255);
}

/** Content-Disposition for a download: an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
