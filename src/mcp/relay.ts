import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { ErrorLog } from "./server.js";

/** Who opened an SSE session, kept in Redis so any node can check a POST before relaying it. */
export interface SessionOwner {
  tokenId: string | null;
  tenant: string;
  node: string;
}

export type RelayHandler = (message: unknown) => void;

const KEY_PREFIX = "cuadra:mcp:session:";
export const sessionKey = (id: string) => `${KEY_PREFIX}${id}`;
const channelOf = (id: string) => `${KEY_PREFIX}${id}:messages`;
const idOfChannel = (channel: string) => channel.slice(KEY_PREFIX.length, -":messages".length);

/**
 * Cross-node delivery of legacy SSE messages through Redis: the node holding a session's stream
 * subscribes to the session's channel and owns the key `cuadra:mcp:session:{id}` (TTL refreshed
 * by the keep-alive); a node receiving a POST for a session it does not hold checks the key and
 * publishes the message on the channel.
 */
export class RedisRelay {
  readonly node = randomUUID();
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, RelayHandler>();

  constructor(
    url: string,
    private readonly log: ErrorLog,
    private readonly ttlSeconds = 45,
  ) {
    this.commands = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.subscriber = this.commands.duplicate();
    for (const connection of [this.commands, this.subscriber]) {
      connection.on("error", (err) => this.log.error({ err }, "MCP relay: Redis connection error"));
    }
    this.subscriber.on("message", (channel: string, payload: string) => {
      const handler = this.handlers.get(idOfChannel(channel));
      if (!handler) return;
      try {
        handler(JSON.parse(payload));
      } catch (err) {
        this.log.error({ err }, "MCP relay: undeliverable message");
      }
    });
  }

  /** This node holds the session: subscribe to its channel, then advertise it. */
  async claim(id: string, owner: Omit<SessionOwner, "node">, handler: RelayHandler): Promise<void> {
    this.handlers.set(id, handler);
    await this.subscriber.subscribe(channelOf(id));
    await this.commands.set(
      sessionKey(id),
      JSON.stringify({ ...owner, node: this.node }),
      "EX",
      this.ttlSeconds,
    );
  }

  /** Keep-alive: the session is still here. */
  async refresh(id: string): Promise<void> {
    await this.commands.expire(sessionKey(id), this.ttlSeconds);
  }

  async release(id: string): Promise<void> {
    this.handlers.delete(id);
    await Promise.all([this.subscriber.unsubscribe(channelOf(id)), this.commands.del(sessionKey(id))]);
  }

  async owner(id: string): Promise<SessionOwner | null> {
    const raw = await this.commands.get(sessionKey(id));
    return raw ? (JSON.parse(raw) as SessionOwner) : null;
  }

  /** True when a node received the message (it holds the session's stream). */
  async publish(id: string, message: unknown): Promise<boolean> {
    return (await this.commands.publish(channelOf(id), JSON.stringify(message))) > 0;
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled(
      [this.subscriber, this.commands].map((c) => (c.status === "ready" ? c.quit() : c.disconnect())),
    );
  }
}
