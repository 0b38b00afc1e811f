import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Config } from "../config.js";
import { assertLocalCaller } from "../mcp/local-server-file.js";
import type { DatabaseHandle } from "../platform/db/client.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { NotFoundError } from "../platform/http/errors.js";
import type { CommandIo } from "./command.js";
import { findCommand } from "./commands/index.js";
import { serverEnv } from "./env.js";
import { describeCliError } from "./errors.js";
import { CONTROL_PATH, type ControlEvent } from "./relay.js";

const body = z.object({ command: z.string().min(1).max(100), input: z.unknown() });

/** POST /api/local/cli: runs a relayed CLI command here, streaming its output as NDJSON lines. */
export function registerLocalControl(
  app: FastifyInstance,
  options: { config: Config; main: DatabaseHandle; tenants: TenantDirectory },
) {
  app.post(
    CONTROL_PATH,
    {
      config: { auth: "public" },
      schema: { hide: true, operationId: "runLocalCliCommand", body },
      // A relayed file (bc3 import) arrives base64-encoded inside the JSON body.
      bodyLimit: Math.ceil((options.config.maxUploadBytes * 4) / 3) + 64 * 1024,
      preHandler: assertLocalCaller(options.tenants, {
        access: "The local control channel",
        key: "local key",
      }),
    },
    async (request, reply) => {
      const { command: name, input } = request.body as z.infer<typeof body>;
      const command = findCommand(name);
      if (command?.whileServerRuns !== "relay") throw new NotFoundError(`Relayed command ${name}`);
      request.log.info({ command: name }, "running a CLI command relayed by the local operator");
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
      const send = (event: ControlEvent) => {
        if (!raw.destroyed) raw.write(`${JSON.stringify(event)}\n`);
      };
      const io: CommandIo = {
        out: (text) => send({ kind: "out", text }),
        warn: (text) => send({ kind: "warn", text }),
        progress: (text) => send({ kind: "progress", text }),
      };
      const env = serverEnv(options.config, options.main, options.tenants);
      try {
        await command.run(env, input, io);
        send({ kind: "done" });
      } catch (err) {
        const { message, expected } = describeCliError(err);
        if (!expected) request.log.error({ err, command: name }, "relayed CLI command failed");
        send({ kind: "error", message });
      } finally {
        await env.close().catch((err) => request.log.error({ err }, "closing a tenant database failed"));
        raw.end();
      }
    },
  );
}
