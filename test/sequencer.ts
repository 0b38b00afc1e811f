import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (seconds of waiting on spawned processes, servers, browsers and
 * timeouts, measured on this machine: docs/performance.md "test suite", ADR 045), longest first,
 * each file's whole time counted (its beforeAll and module import too). Vitest hands the next file
 * to whichever worker is free: started first, they overlap the short files instead of running alone
 * at the end. Vitest's own order (longest first from its cache of durations) needs a previous run;
 * a fresh clone has none and runs the biggest files (in bytes) first, so a small file that waits
 * long could start last and leave the other workers idle. A file missing from the list just runs
 * in Vitest's order. The two files that start from the shared demo (test/helpers/demo.ts) come
 * after `mcp/demo`, which loads it, has had the time to.
 */
export const SLOW_FILES = [
  "src/cli/beside-server.test.ts",
  "src/mcp/demo.test.ts",
  "src/mcp/stdio.test.ts",
  "test/e2e/docs-browser.test.ts",
  "src/mcp/eras.test.ts",
  "src/cli/backup.test.ts",
  "src/modules/verifactu/submission/submission.test.ts",
  "src/mcp/sse.test.ts",
  "src/runtime/crash-recovery.test.ts",
  "src/runtime/shutdown.test.ts",
  "test/e2e/demo.test.ts",
  "src/mcp/oauth.test.ts",
  "src/platform/db/template.test.ts",
  "src/cli/first-admin.test.ts",
  "test/e2e/lazy-imports.test.ts",
  "src/mcp/direct-path.test.ts",
  "test/e2e/fuzz.test.ts",
  "src/modules/sales/access.test.ts",
  "src/modules/banking/movements/movements.test.ts",
  "src/modules/projects/bc3-io/import-limits.test.ts",
  "test/helpers/demo.test.ts",
  "src/mcp/relay.test.ts",
  "src/modules/verifactu/records.test.ts",
  "src/mcp/tools.test.ts",
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.indexOf(
        relative(spec.project.config.root, spec.moduleId).replaceAll("\\", "/"),
      );
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
