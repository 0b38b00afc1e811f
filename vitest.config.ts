import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Each worker evaluates the app's module graph once and runs file after file in it: with
    // isolation every one of ~140 files paid 1-3 s (more on a loaded machine) just importing the
    // server. Safe here: no test mocks modules or stubs globals, module-level state is
    // registration-only (hooks added once), and every file builds its own app and database.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
