// Pure unit tests only (no database): handy while developing a module in isolation.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["src/**/*.test.ts"], pool: "forks", testTimeout: 30_000 },
});
