import { describe, expect, it } from "vitest";
import type { OAuthConfig } from "../../config.js";
import { cimdFetch, cimdRefusal, isPublicAddress } from "./client-policy.js";

const strict: OAuthConfig = {
  accessTokenTtlSeconds: 600,
  dynamicRegistration: false,
  cimdAllowHttpLoopback: false,
  cimdAllowedHosts: [],
  cimdDeniedHosts: [],
};
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe("which client metadata documents are fetched (SSRF)", () => {
  it("refuses loopback, private, link-local and special addresses by default", async () => {
    for (const id of [
      "https://localhost/c.json",
      "https://127.0.0.1/c.json",
      "https://127.1.2.3:8443/c.json",
      "https://[::1]/c.json",
      "https://10.0.0.5/c.json",
      "https://172.20.1.1/c.json",
      "https://192.168.0.10/c.json",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/c.json",
      "https://0.0.0.0/c.json",
      "https://[fd00::1]/c.json",
      "https://[fe80::1]/c.json",
      "https://[::ffff:10.0.0.1]/c.json",
    ]) {
      expect(await cimdRefusal(strict, id), id).not.toBeNull();
    }
  });

  it("refuses a public name resolving to a private address, and one that does not resolve", async () => {
    expect(
      await cimdRefusal(strict, "https://evil.example/c.json", resolvesTo("93.184.216.34", "10.0.0.1")),
    ).toMatch(/non-public address 10\.0\.0\.1/);
    expect(
      await cimdRefusal(strict, "https://evil.example/c.json", async () => {
        throw new Error("ENOTFOUND");
      }),
    ).toMatch(/does not resolve/);
    expect(
      await cimdRefusal(strict, "https://assistant.example/c.json", resolvesTo("93.184.216.34")),
    ).toBeNull();
  });

  it("accepts only https, and applies the operator's allow and deny lists", async () => {
    expect(await cimdRefusal(strict, "http://assistant.example/c.json", resolvesTo("93.184.216.34"))).toMatch(
      /https/,
    );
    const listed = {
      ...strict,
      cimdAllowedHosts: ["*.trusted.example"],
      cimdDeniedHosts: ["bad.trusted.example"],
    };
    expect(
      await cimdRefusal(listed, "https://app.trusted.example/c.json", resolvesTo("93.184.216.34")),
    ).toBeNull();
    expect(
      await cimdRefusal(listed, "https://bad.trusted.example/c.json", resolvesTo("93.184.216.34")),
    ).toMatch(/DENIED/);
    expect(await cimdRefusal(listed, "https://other.example/c.json", resolvesTo("93.184.216.34"))).toMatch(
      /ALLOWED/,
    );
  });

  it("allows loopback only with OAUTH_CIMD_ALLOW_HTTP_LOOPBACK, never private networks", async () => {
    const tests = { ...strict, cimdAllowHttpLoopback: true };
    expect(await cimdRefusal(tests, "https://127.0.0.1:4000/c.json")).toBeNull();
    expect(await cimdRefusal(tests, "https://localhost:4000/c.json")).toBeNull();
    expect(await cimdRefusal(tests, "https://10.0.0.5/c.json")).not.toBeNull();
  });

  it("tells public from non-public addresses", () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2a00:1450:4003:80f::200e")).toBe(true);
    expect(isPublicAddress("::ffff:8.8.8.8")).toBe(false);
    expect(isPublicAddress("10.0.0.1")).toBe(false);
    expect(isPublicAddress("::ffff:127.0.0.1")).toBe(false);
    expect(isPublicAddress("not-an-ip")).toBe(false);
  });

  it("fetches over plain HTTP only loopback URLs, only with the test setting", async () => {
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (url: URL | string) => {
      seen.push(String(url));
      return new Response("{}");
    }) as typeof fetch;
    try {
      await cimdFetch({ ...strict, cimdAllowHttpLoopback: true })("https://127.0.0.1:4000/c.json", {});
      await cimdFetch({ ...strict, cimdAllowHttpLoopback: true })("https://assistant.example/c.json", {});
      await cimdFetch(strict)("https://127.0.0.1:4000/c.json", {});
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([
      "http://127.0.0.1:4000/c.json",
      "https://assistant.example/c.json",
      "https://127.0.0.1:4000/c.json",
    ]);
  });
});
