import { createApiToken, SCOPE_PATTERN } from "../modules/api-tokens/index.js";
import { actorOfActiveUser } from "../modules/identity/index.js";
import type { Actor } from "../platform/auth/actor.js";
import type { Db } from "../platform/db/client.js";

/** The user a CLI-created token acts for (its permissions and company apply). */
export async function cliActor(db: Db, email: string): Promise<Actor> {
  const actor = await actorOfActiveUser(db, email);
  if (!actor) throw new Error(`No active user ${email}; pass --user with an active user's e-mail`);
  return actor;
}

export async function createApiTokenFromCli(
  db: Db,
  actor: Actor,
  input: { name: string; scopes: string[]; companyId?: string; expiresDays?: number },
): Promise<string> {
  const bad = input.scopes.filter((s) => !SCOPE_PATTERN.test(s));
  if (bad.length)
    throw new Error(`Invalid scope(s): ${bad.join(", ")} (use api_access, mcp, mcp:<area> or *)`);
  if (input.expiresDays !== undefined && !(input.expiresDays > 0))
    throw new Error("--expires-days must be a positive number");
  const expiresAt = input.expiresDays ? new Date(Date.now() + input.expiresDays * 86_400_000) : null;
  const { token } = await createApiToken(
    { db, tenantId: "cli", actor },
    { name: input.name, scopes: input.scopes, companyId: input.companyId ?? null, expiresAt },
  );
  return token;
}
