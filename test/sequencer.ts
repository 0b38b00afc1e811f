import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (seconds of waiting on spawned processes, servers and timeouts,
 * measured on this machine, docs/performance.md "test suite"), longest first. Vitest hands the
 * next file to whichever worker is free: started first, they overlap the short files instead of
 * running alone at the end. Vitest's own order (longest first from its cache of durations) needs
 * a previous run; a fresh clone has none and ran the biggest files first, so one of these could
 * start last and leave the other worker idle for a minute. A file missing from the list just
 * runs in Vitest's order.
 */
export const SLOW_FILES = [
  "src/cli/beside-server.test.ts",
  "src/mcp/demo.test.ts",
  "src/mcp/stdio.test.ts",
  "src/mcp/oauth.test.ts",
  "src/mcp/sse.test.ts",
  "test/e2e/demo.test.ts",
  "src/mcp/eras.test.ts",
  "src/modules/verifactu/submission/submission.test.ts",
  "src/cli/backup.test.ts",
  "src/runtime/crash-recovery.test.ts",
  "src/mcp/relay.test.ts",
  "test/e2e/fuzz.test.ts",
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
