import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import type { Db } from "../../platform/db/client.js";
import { createOAuthServers } from "./provider.js";

const noDb = async (): Promise<Db> => {
  throw new Error("discovery reads no database");
};

async function discovery(env: Record<string, string>, tenantId = "default") {
  const config = loadConfig({ NODE_ENV: "test", ...env });
  const servers = createOAuthServers({
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    oauth: config.oauth,
    secret: "test-secret-test-secret-test-secret-0123456789",
    resourcePath: "/api/mcp",
    scopes: ["mcp", "mcp:contacts"],
    log: { warn: () => undefined },
    onGrantRevoked: () => undefined,
  });
  const { handle } = await servers.forTenant(tenantId, noDb);
  const server = createServer((req, res) => {
    req.headers["x-forwarded-host"] = "evil.example";
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    const res = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`);
    return (await res.json()) as Record<string, unknown>;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the authorization server's configuration", () => {
  it("is the tenant's own issuer whatever the Host, code + PKCE S256 only, no registration by default", async () => {
    const metadata = await discovery(
      { PUBLIC_URL: "https://books.example.es", BASE_DOMAIN: "books.example.es" },
      "acme",
    );
    expect(metadata.issuer).toBe("https://acme.books.example.es");
    expect(metadata.authorization_endpoint).toBe("https://acme.books.example.es/oauth/authorize");
    expect(metadata.response_types_supported).toEqual(["code"]);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token"]),
    );
    expect(metadata.grant_types_supported).not.toContain("implicit");
    expect(metadata.registration_endpoint).toBeUndefined();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  });

  it("opens dynamic registration with OAUTH_DYNAMIC_REGISTRATION=true", async () => {
    const metadata = await discovery({
      PUBLIC_URL: "https://books.example.es",
      OAUTH_DYNAMIC_REGISTRATION: "true",
    });
    expect(metadata.registration_endpoint).toBe("https://books.example.es/oauth/register");
  });

  it("refuses an access-token lifetime outside 30 s to a day", () => {
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: "5" })).toThrow(
      /OAUTH_ACCESS_TOKEN_TTL_SECONDS/,
    );
    expect(loadConfig({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: "120" }).oauth.accessTokenTtlSeconds).toBe(120);
  });
});
