import type { CommandIo } from "./command.js";

/** stdout carries results only (a script can capture a token); warnings and progress go to stderr. */
export function terminalIo(): CommandIo {
  const started = Date.now();
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    warn: (line) => process.stderr.write(`warning: ${line}\n`),
    progress: (line) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(`... ${line} [${seconds} s]\n`);
    },
  };
}
