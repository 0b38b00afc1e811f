import { adminLines, prepareDatabase } from "../../runtime/database.js";
import { defineCommand, noArgs, stringOption, TENANT_OPTION } from "../command.js";
import { DEMO_STEPS, loadDemo } from "../demo.js";

export const demoCommand = defineCommand({
  name: "demo",
  summary:
    "load the demo: a project budget, a company with contacts, products, ledger, invoices, bank (idempotent)",
  options: {
    user: {
      type: "string",
      value: "EMAIL",
      description: "the user the demo is created as (default ADMIN_EMAIL)",
    },
    tenant: TENANT_OPTION,
  },
  examples: ["npm run cli -- demo", "npm run cli -- demo --tenant acme"],
  whileServerRuns: "relay",
  parse: (values, positionals, config) => {
    noArgs(positionals);
    return {
      user: stringOption(values, "user") ?? config.adminEmail,
      tenant: stringOption(values, "tenant"),
    };
  },
  async run(env, input, io) {
    io.progress("opening the database");
    const handle = await env.database(input.tenant);
    // Before the first `npm start`: this creates the database and its first administrator.
    if (!input.tenant && env.where === "direct") {
      io.progress("preparing the database (migrations)");
      for (const line of adminLines(await prepareDatabase(handle, env.config.databaseUrl, env.config)))
        io.out(line);
    }
    const result = await loadDemo(handle.db, input.user, (step, index) =>
      io.progress(`demo: ${step} (${index + 1}/${DEMO_STEPS.length})`),
    );
    io.out(
      `projects demo: ${result.budget.created ? "loaded" : "already there"} (budget ${result.budget.budgetId})`,
    );
    io.out(
      `enterprise demo: ${result.company.created ? "loaded" : "already there"} (company ${result.company.companyId})`,
    );
    io.out(`ledger demo: ${result.entriesCreated} entries created`);
    io.out(`banking demo: ${result.bankMovements} bank movements imported and auto-matched`);
  },
});
