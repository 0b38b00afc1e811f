import { readFileSync } from "node:fs";
import { importBc3FromCli, progressPrinter } from "../bc3-import.js";
import { CliError, defineCommand, requiredArg, stringOption, TENANT_OPTION } from "../command.js";

export const bc3ImportCommand = defineCommand({
  name: "bc3 import",
  summary: "create a budget from a BC3 (FIEBDC-3) file, showing its progress and the import report",
  args: "<FILE>",
  options: {
    "budget-code": {
      type: "string",
      value: "CODE",
      description:
        "code of the new budget (default: the file's root code, or the next free CODE-2, CODE-3...)",
    },
    name: {
      type: "string",
      value: "NAME",
      description: "name of the new budget (default: the root's summary)",
    },
    user: {
      type: "string",
      value: "EMAIL",
      description: "the user the budget is created as (default ADMIN_EMAIL)",
    },
    tenant: TENANT_OPTION,
  },
  examples: [
    "npm run cli -- bc3 import obra.bc3",
    'npm run cli -- bc3 import obra.bc3 --budget-code OBRA-2027 --name "Edificio Sol"',
  ],
  whileServerRuns: "relay",
  parse: (values, positionals, config) => {
    const path = requiredArg(positionals, "BC3 file");
    let file: Buffer;
    try {
      file = readFileSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(
        `Cannot read ${path}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}`,
      );
    }
    // The input travels as JSON when the command is relayed to a running server.
    return {
      file: file.toString("base64"),
      budgetCode: stringOption(values, "budget-code"),
      name: stringOption(values, "name"),
      user: stringOption(values, "user") ?? config.adminEmail,
      tenant: stringOption(values, "tenant"),
    };
  },
  async run(env, input, io) {
    const handle = await env.database(input.tenant);
    const { report } = await importBc3FromCli(
      handle.db,
      {
        file: Buffer.from(input.file, "base64"),
        budgetCode: input.budgetCode,
        name: input.name,
        userEmail: input.user,
      },
      progressPrinter((line) => io.progress(line)),
    );
    const { counts } = report;
    io.out(
      `budget ${report.budgetCode}: ${counts.placements} placements of ${counts.concepts} concepts, ` +
        `${counts.measurementLines} measurement lines, ${counts.texts} texts (read as ${report.charset})`,
    );
    io.out(`imported total ${counts.importedTotal}; the file declares ${report.declaredPrice ?? "no total"}`);
    for (const w of report.warnings) io.warn(`line ${w.line}: ${w.message}`);
  },
});
