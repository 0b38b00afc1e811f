import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/modules/**/tables.ts", "./src/platform/db/tables.ts"],
  out: "./drizzle",
});
