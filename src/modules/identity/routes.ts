import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authRoutesV1 } from "./auth/routes.js";
import type { AuthService } from "./auth/service.js";
import { roleRoutesV1 } from "./roles/routes.js";
import { userRoutesV1 } from "./users/routes.js";

/** /api/v1 identity: auth, users, roles and permissions. */
export const identityRoutesV1: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, opts) => {
  await app.register(authRoutesV1, opts);
  await app.register(userRoutesV1, opts);
  await app.register(roleRoutesV1);
};
