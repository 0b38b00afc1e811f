import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests: Debian's Chromium (Playwright never downloads a browser here) against the real
 * server on a fresh PGlite data directory with the demo loaded (global-setup.ts), or against
 * E2E_BASE_URL when it is given.
 */
export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.ts$/,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [["list"]],
  outputDir: "artifacts/results",
  globalSetup: "./global-setup.ts",
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox"],
    },
    viewport: { width: 1440, height: 900 },
    locale: "es-ES",
    reducedMotion: "reduce",
    acceptDownloads: true,
    trace: "off",
    screenshot: "only-on-failure",
  },
});
