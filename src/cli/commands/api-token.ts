import { SCOPE_PATTERN } from "../../modules/api-tokens/index.js";
import { cliActor, createApiTokenFromCli } from "../api-token.js";
import {
  CliUsageError,
  defineCommand,
  noArgs,
  positiveIntOption,
  requiredOption,
  stringOption,
  TENANT_OPTION,
  uuidOption,
} from "../command.js";

export const apiTokenCreateCommand = defineCommand({
  name: "api-token create",
  summary: "create an API token acting for a user; the token is printed once (stdout)",
  options: {
    name: { type: "string", value: "N", description: "what the token is for (required)" },
    scope: {
      type: "string",
      multiple: true,
      value: "S",
      description: "api_access, mcp, mcp:<area> or * (at least one)",
    },
    company: { type: "string", value: "ID", description: "restrict the token to this company (its id)" },
    "expires-days": { type: "string", value: "D", description: "expire after D days (default: never)" },
    user: { type: "string", value: "EMAIL", description: "the user it acts for (default ADMIN_EMAIL)" },
    tenant: TENANT_OPTION,
  },
  examples: [
    "npm run cli -- api-token create --name claude --scope mcp",
    "npm run cli -- api-token create --name erp-sync --scope api_access --company 0190a5c2-7b1e-7c3d-9f00-1234567890ab --expires-days 90",
  ],
  whileServerRuns: "relay",
  parse: (values, positionals, config) => {
    noArgs(positionals);
    const scopes = (values.scope as string[] | undefined) ?? [];
    if (!scopes.length) throw new CliUsageError("at least one --scope is required");
    const bad = scopes.filter((s) => !SCOPE_PATTERN.test(s));
    if (bad.length)
      throw new CliUsageError(`invalid --scope ${bad.join(", ")} (use api_access, mcp, mcp:<area> or *)`);
    return {
      name: requiredOption(values, "name"),
      scopes,
      companyId: uuidOption(values, "company"),
      expiresDays: positiveIntOption(values, "expires-days"),
      user: stringOption(values, "user") ?? config.adminEmail,
      tenant: stringOption(values, "tenant"),
    };
  },
  async run(env, input, io) {
    const handle = await env.database(input.tenant);
    const actor = await cliActor(handle.db, input.user);
    io.out(await createApiTokenFromCli(handle.db, actor, input));
    io.warn("this is the only time the token is shown: store it now");
  },
});
