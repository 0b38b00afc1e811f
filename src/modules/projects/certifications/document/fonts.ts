import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** The TrueType fonts embedded in the certification PDF: DejaVu Sans Condensed (pinned npm package). */
export interface DocumentFonts {
  regular: Buffer;
  bold: Buffer;
  italic: Buffer;
}

const FILES = {
  regular: "dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf",
  italic: "dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Oblique.ttf",
};

let loading: Promise<DocumentFonts> | undefined;

/** Read on the first document, not at server start; a failed read is retried by the next document. */
export function loadDocumentFonts(): Promise<DocumentFonts> {
  if (!loading) {
    const resolve = createRequire(import.meta.url).resolve;
    loading = Promise.all([
      readFile(resolve(FILES.regular)),
      readFile(resolve(FILES.bold)),
      readFile(resolve(FILES.italic)),
    ]).then(
      ([regular, bold, italic]) => ({ regular, bold, italic }),
      (err) => {
        loading = undefined;
        throw err;
      },
    );
  }
  return loading;
}
