/** Calendar arithmetic on ISO dates (YYYY-MM-DD), in UTC so no time zone can shift a day. */

const DAY_MS = 86_400_000;

const toTime = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const toIso = (time: number) => new Date(time).toISOString().slice(0, 10);

export const addDays = (iso: string, days: number) => toIso(toTime(iso) + days * DAY_MS);

export const firstOfMonth = (iso: string) => `${iso.slice(0, 7)}-01`;

export function lastOfMonth(iso: string): string {
  const d = new Date(toTime(iso));
  return toIso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

/** The same day one year later (29 February -> 1 March). */
export function addOneYear(iso: string): string {
  const d = new Date(toTime(iso));
  return toIso(Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), d.getUTCDate()));
}

export const today = () => new Date().toISOString().slice(0, 10);

/** Timestamps in JSON: ISO 8601 UTC. */
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
