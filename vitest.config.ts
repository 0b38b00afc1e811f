import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test/sequencer.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // One more worker than this machine's 2 cores: about a fifth of the suite's time is spent
    // waiting (spawned CLI and MCP processes starting, servers, oidc-provider's fetch timeouts),
    // and the third worker runs another file meanwhile (ADR 033).
    maxWorkers: 3,
    // Each worker evaluates the app's module graph once and runs file after file in it: with
    // isolation every one of ~140 files paid 1-3 s (more on a loaded machine) just importing the
    // server. Safe here: no test mocks modules or stubs globals, module-level state is
    // registration-only (hooks added once), and every file builds its own app and database.
    isolate: false,
    // Young-generation semi-spaces of 64 MB instead of V8's 16: a worker allocates fast (PGlite's
    // results, apps built and dropped file after file) and spent ~12 % of its samples in the
    // garbage collector; larger semi-spaces scavenge less often and promote less (ADR 045).
    execArgv: ["--max-semi-space-size=64"],
    // The slowest files start first, so the run does not end on one of them (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
