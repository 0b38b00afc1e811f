import type { FastifyServerOptions } from "fastify";

/** Never log credentials: headers, and any body field that could carry one. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.headers['x-api-key']",
  "res.headers['set-cookie']",
  "*.password",
  "*.current_password",
  "*.new_password",
  "*.access_token",
  "*.refresh_token",
  "*.token",
  "*.jwtSecret",
  "*.adminPassword",
];

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    ...(stream ? { stream } : {}),
    serializers: {
      // The query string can carry search text or tokens pasted by mistake: log the path only.
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split("?")[0],
        id: req.id,
        ip: req.ip,
      }),
    },
  };
}

/**
 * Readable lines for a person at a terminal; JSON lines (the default) for log collectors. Built in
 * the process (no transport worker), so the shutdown's last lines are never lost.
 */
export async function terminalLogStream(
  stdout: NodeJS.WriteStream = process.stdout,
): Promise<NodeJS.WritableStream | undefined> {
  if (!stdout.isTTY) return undefined;
  // Imported only for a terminal: a server logging JSON never loads it.
  const { default: pretty } = await import("pino-pretty");
  return pretty({
    colorize: true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname",
    singleLine: true,
    destination: stdout,
  });
}
