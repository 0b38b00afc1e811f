import pg from "pg";

export function databaseUrl(base: string, database: string): string {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
}

export function adminPool(base: string) {
  return new pg.Pool({ connectionString: base, max: 2 });
}
