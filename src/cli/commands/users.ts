import { createAdministrator, resetPassword } from "../../modules/identity/index.js";
import { generatePassword } from "../../platform/auth/passwords.js";
import { CliError, defineCommand, noArgs, requiredOption, stringOption, TENANT_OPTION } from "../command.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailOption(values: Parameters<typeof requiredOption>[0]) {
  const email = requiredOption(values, "email");
  if (!EMAIL.test(email)) throw new CliError(`--email must be an e-mail address, not ${email}`);
  return email.toLowerCase();
}

function passwordOption(values: Parameters<typeof stringOption>[0]) {
  const password = stringOption(values, "password");
  if (password !== undefined && password.length < 8)
    throw new CliError("--password must be at least 8 characters");
  return password;
}

const PASSWORD = {
  type: "string",
  value: "P",
  description: "the password (default: a generated one, printed once)",
} as const;

export const adminCreateCommand = defineCommand({
  name: "admin create",
  summary: "create an administrator, or promote and re-activate an existing user",
  options: {
    email: { type: "string", value: "E", description: "the administrator's e-mail (required)" },
    password: PASSWORD,
    tenant: TENANT_OPTION,
  },
  examples: ["npm run cli -- admin create --email ana@example.com"],
  whileServerRuns: "relay",
  parse: (values, positionals) => {
    noArgs(positionals);
    return {
      email: emailOption(values),
      password: passwordOption(values),
      tenant: stringOption(values, "tenant"),
    };
  },
  async run(env, input, io) {
    const password = input.password ?? generatePassword();
    const handle = await env.database(input.tenant);
    const result = await createAdministrator(handle.db, input.email, password);
    io.out(`administrator ${input.email} ${result.created ? "created" : "promoted and re-activated"}`);
    if (!input.password) io.out(`password: ${password}   (generated; shown only this once)`);
  },
});

export const userResetPasswordCommand = defineCommand({
  name: "user reset-password",
  summary: "set a user's password and revoke every session of the user",
  options: {
    email: { type: "string", value: "E", description: "the user's e-mail (required)" },
    password: PASSWORD,
    tenant: TENANT_OPTION,
  },
  examples: [
    "npm run cli -- user reset-password --email ana@example.com",
    "npm run cli -- user reset-password --email ana@acme.es --tenant acme",
  ],
  whileServerRuns: "relay",
  parse: (values, positionals) => {
    noArgs(positionals);
    return {
      email: emailOption(values),
      password: passwordOption(values),
      tenant: stringOption(values, "tenant"),
    };
  },
  async run(env, input, io) {
    const password = input.password ?? generatePassword();
    const handle = await env.database(input.tenant);
    if (!(await resetPassword(handle.db, input.email, password)))
      throw new CliError(`No user ${input.email}`);
    io.out(`password of ${input.email} reset; every session of the user was revoked`);
    if (!input.password) io.out(`password: ${password}   (generated; shown only this once)`);
  },
});
