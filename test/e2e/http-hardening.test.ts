import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_CSP, registerSecurityHeaders } from "../../src/platform/http/security-headers.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectProblem } from "../helpers/problem.js";

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

/** One raw HTTP/1.1 exchange (the parser's own errors never reach inject). */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", () => {}); // the server closes after answering
    socket.on("close", () => {
      const [head, ...rest] = data.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      if (!statusLine) reject(new Error("no answer"));
      else resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.write(request);
  });
}

describe("errors raised before routing are problem+json", () => {
  it("bad percent-encoding in a path parameter (FST_ERR_BAD_URL) is a 400 problem", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: "/api/companies/%E0%A4%A" });
    const body = expectProblem(res, 400);
    expect(body.detail).toMatch(/percent-encoding/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("a path parameter longer than the router accepts is a 414 problem", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/companies/${"a".repeat(600)}` });
    const body = expectProblem(res, 414);
    expect(body.type).toBe("urn:cuadra:problem:uri-too-long");
  });

  it("headers larger than Node accepts are a 431 problem, written by the parser's handler", async () => {
    const res = await raw(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ status: 431, type: "urn:cuadra:problem:headers-too-large" });
  });

  it("a URL longer than Node's header limit is a 431 problem", async () => {
    const res = await raw(`GET /api/health?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("a malformed request line is a 400 problem", async () => {
    const res = await raw("GARBAGE\r\n\r\n");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body).status).toBe(400);
  });
});

describe("security headers", () => {
  it("every API answer, success or problem, forbids sniffing, framing, referrers and caching", async () => {
    const answers = [
      await t.as(t.adminToken, { method: "GET", url: "/api/companies" }),
      await t.app.inject({ method: "GET", url: "/api/companies" }),
      await t.app.inject({ method: "GET", url: "/api/nowhere" }),
      await t.app.inject({ method: "GET", url: "/api/health" }),
    ];
    for (const res of answers) {
      expect(res.headers["x-content-type-options"], res.body).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["content-security-policy"]).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
      expect(res.headers["strict-transport-security"]).toBeUndefined(); // PUBLIC_URL is http here
    }
  });

  it("token responses are never stored", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: "admin@example.com", password: "wrong password" },
    });
    expect(login.headers["cache-control"]).toBe("no-store");
    const user = await t.userWith(["companies:leer"]);
    const pair = await t.login(user.email, user.password);
    expect(pair.access_token).toBeTruthy();
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: user.email, password: user.password },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["cache-control"]).toBe("no-store");
    const refresh = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: ok.json().refresh_token },
    });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.headers["cache-control"]).toBe("no-store");
    const token = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/api-tokens",
      payload: { name: "headers", scopes: ["api_access"] },
    });
    expect(token.statusCode, token.body).toBe(201);
    expect(token.headers["cache-control"]).toBe("no-store");
  });

  it("HSTS is sent when PUBLIC_URL is https", async () => {
    const app = Fastify();
    registerSecurityHeaders(app, { publicUrl: "https://cuadra.example.com" });
    app.get("/", async () => ({ ok: true }));
    const res = await app.inject({ method: "GET", url: "/" });
    expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);
    expect(res.headers["x-frame-options"]).toBe("DENY");
    await app.close();
  });

  it.each(["/api/docs", "/api/v1/docs", "/api/redoc", "/api/v1/redoc"])(
    "%s gets a CSP that lets its own assets load and nothing else",
    async (url) => {
      let res = await t.app.inject({ method: "GET", url });
      let current = url;
      for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 5; hops++) {
        current = new URL(String(res.headers.location), `http://local${current}`).pathname;
        res = await t.app.inject({ method: "GET", url: current });
      }
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-security-policy"]).toBe(DOCS_CSP);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      // script-src 'self' without 'unsafe-inline': the page may not carry an inline script
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const refs = [...res.body.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const asset = new URL(ref, `http://local${current}`);
        expect(asset.host, ref).toBe("local"); // 'self'
        const loaded = await t.app.inject({ method: "GET", url: asset.pathname });
        expect(loaded.statusCode, asset.pathname).toBe(200);
      }
    },
  );
});
