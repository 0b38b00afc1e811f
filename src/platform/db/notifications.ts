import pg from "pg";

/** What a LISTEN subscriber hears: its channel's payloads, and whether it may have missed any. */
export interface NotificationListener {
  onNotify(payload: string): void;
  /** LISTEN is in effect (again): every notification committed from now on will arrive. */
  onListening(): void;
  /** From now until the next onListening, notifications may be missed (connection lost, handle closed). */
  onLost(): void;
}

/** Stops listening; the listener hears onLost. */
export type StopListening = () => Promise<void>;

export interface PostgresListenOptions {
  /** Wait before reconnecting after the connection dropped (default 1 s). */
  retryMs?: number;
  /**
   * A `select 1` this often on the listening connection (default 10 s): a connection that died
   * without telling us (a half-open TCP connection) is noticed within this plus its timeout.
   */
  heartbeatMs?: number;
}

/** The name the listening connection shows in pg_stat_activity (operators, tests). */
export const LISTENER_APPLICATION_NAME = "cuadra_listener";

/**
 * LISTEN on a dedicated connection (never a pooled one: a pool hands its connections to other
 * queries and closes them when idle), reconnecting after any loss, for as long as it is not stopped.
 */
export function listenOnPostgres(
  url: string,
  channel: string,
  listener: NotificationListener,
  options: PostgresListenOptions = {},
): StopListening {
  const retryMs = options.retryMs ?? 1_000;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  async function connect() {
    if (stopped) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      query_timeout: heartbeatMs,
    });
    current = client;
    let heartbeat: NodeJS.Timeout | undefined;
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      clearInterval(heartbeat);
      listener.onLost();
      client.end().catch(() => undefined);
      if (!stopped) {
        retry = setTimeout(() => void connect(), retryMs);
        retry.unref();
      }
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel === channel) listener.onNotify(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      drop();
      return;
    }
    if (stopped || dropped) return;
    listener.onListening();
    heartbeat = setInterval(() => {
      client.query("select 1").catch(drop);
    }, heartbeatMs);
    heartbeat.unref();
  }

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    listener.onLost();
    await current?.end().catch(() => undefined);
  };
}
