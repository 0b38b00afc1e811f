import type { CliCommand } from "../command.js";
import { apiTokenCreateCommand } from "./api-token.js";
import { backupCommand, restoreCommand } from "./backup.js";
import { bc3ImportCommand } from "./bc3.js";
import { demoCommand } from "./demo.js";
import { migrateCommand } from "./migrate.js";
import {
  tenantActivateCommand,
  tenantCreateCommand,
  tenantListCommand,
  tenantSuspendCommand,
} from "./tenant.js";
import { adminCreateCommand, userResetPasswordCommand } from "./users.js";

/**
 * Every operator command. To add one: a file in this folder exporting `defineCommand({...})` (name,
 * summary, options, examples, whileServerRuns, parse, run), then one line here; help, errors, the
 * data-directory lock and the relay to a running server come with it.
 */
export const COMMANDS: CliCommand<unknown>[] = [
  migrateCommand,
  tenantCreateCommand,
  tenantListCommand,
  tenantSuspendCommand,
  tenantActivateCommand,
  adminCreateCommand,
  userResetPasswordCommand,
  apiTokenCreateCommand,
  demoCommand,
  bc3ImportCommand,
  backupCommand,
  restoreCommand,
] as CliCommand<unknown>[];

export function findCommand(name: string): CliCommand<unknown> | undefined {
  return COMMANDS.find((c) => c.name === name);
}
