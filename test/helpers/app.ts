import { Writable } from "node:stream";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/app/build.js";
import { loadConfig } from "../../src/config.js";
import * as identity from "../../src/modules/identity/index.js";
import type { Db } from "../../src/platform/db/client.js";
import { singleTenant } from "../../src/platform/db/tenancy.js";
import type { Ctx } from "../../src/platform/http/context.js";
import type { FileStorage } from "../../src/platform/storage.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "./constants.js";
import { createTestDatabase, type TestDatabase } from "./db.js";

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  db: Db;
  /** Every log line the app wrote, raw JSON. */
  logs: string[];
  /** A service context outside HTTP (setup shortcuts). */
  ctx: Ctx;
  adminToken: string;
  /** Logs in through the API; returns the token pair. */
  login(email: string, password: string): Promise<{ access_token: string; refresh_token: string }>;
  /** A new active user holding a fresh role with exactly these permissions; returns its access token. */
  userWith(permissions: string[], opts?: { email?: string; companyId?: string }): Promise<TestUser>;
  /** Creates a company through the API as the administrator; returns its id. */
  createCompany(name: string, taxId: string): Promise<string>;
  /** app.inject with a bearer token. */
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  roleId: string;
}

let counter = 0;

export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    fileStorage?: FileStorage;
    webRoot?: string | null;
    /** The app's database (closed with the app); default a fresh copy of the suite's template. */
    database?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "info", JWT_SECRET: TEST_JWT_SECRET, ...env });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({
    config: { ...config, jwtSecret: TEST_JWT_SECRET },
    tenants: singleTenant(database.handle),
    logStream,
    fileStorage: options.fileStorage,
    webRoot: options.webRoot,
  });
  await app.ready();
  const db = database.handle.db;
  const ctx: Ctx = { db, tenantId: "default", actor: null };

  const login = async (email: string, password: string) => {
    const res = await app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json() as { access_token: string; refresh_token: string };
  };
  const admin = await login(TEST_ADMIN.email, TEST_ADMIN.password);

  return {
    app,
    database,
    db,
    logs,
    ctx,
    adminToken: admin.access_token,
    login,
    async userWith(permissions, opts = {}) {
      counter += 1;
      const suffix = `${Date.now().toString(36)}${counter}`;
      const role = await identity.createRole(ctx, { name: `role-${suffix}` });
      for (const p of permissions) {
        const [modulo, accion] = p.split(":");
        await identity.addPermission(ctx, role.id, { modulo, accion });
      }
      const email = opts.email ?? `user-${suffix}@example.com`;
      const password = `password-${suffix}`;
      const user = await identity.createUser(ctx, {
        email,
        password,
        roleIds: [role.id],
        companyId: opts.companyId,
      });
      const pair = await login(email, password);
      return {
        id: user.id,
        email,
        password,
        token: pair.access_token,
        refreshToken: pair.refresh_token,
        roleId: role.id,
      };
    },
    async createCompany(name, taxId) {
      const res = await app.inject({
        method: "POST",
        url: "/api/companies",
        headers: { authorization: `Bearer ${admin.access_token}` },
        payload: { name, tax_id: taxId },
      });
      if (res.statusCode !== 201) throw new Error(`create company failed: ${res.statusCode} ${res.body}`);
      return res.json().id as string;
    },
    as(token, options) {
      return app.inject({
        ...options,
        headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` },
      });
    },
    async close() {
      // A file that listened may leave a client's connection open (an MCP stream, a keep-alive
      // socket its fetch never released): Fastify's close would wait for it (~70 s, until Node's
      // headers timeout). The file is done: cut them, then close as usual.
      app.server.closeAllConnections();
      await app.close();
      await database.destroy();
    },
  };
}
