interface Box {
  box: string;
  section: string;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, "0"));

/**
 * A return's boxes in their form sections. The server sends them in form order, each naming its
 * section (the AEAT layout lives on the server, src/modules/tax/returns/layout.ts), so a section is a
 * run of boxes sharing one.
 */
export function groupBoxes<B extends Box>(boxes: B[]): { key: string; boxes: B[] }[] {
  const groups: { key: string; boxes: B[] }[] = [];
  for (const b of boxes) {
    const last = groups.at(-1);
    if (last?.key === b.section) last.boxes.push(b);
    else groups.push({ key: b.section, boxes: [b] });
  }
  return groups;
}

/** The 303's settlement periods: 1T-4T or 01-12; the 390's is 0A. */
export const PERIODS: Record<string, string[]> = {
  quarter: ["1T", "2T", "3T", "4T"],
  month: range(1, 12),
};

export const STATE_COLOR: Record<string, string> = {
  borrador: "gray",
  confirmada: "blue",
  presentada: "teal",
};
