import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { registeredRoutes } from "../../src/platform/auth/guard.js";
import { fastSerializer } from "../../src/platform/http/serializer.js";
import { createTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("response serializers", () => {
  // They compile on a route's first response; one that cannot compile would be a 500 in production.
  it("compiles every route's response schema with fast-json-stringify", () => {
    let compiled = 0;
    const failures: string[] = [];
    for (const route of registeredRoutes(t.app)) {
      const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
      for (const [status, schema] of Object.entries(responses)) {
        if (!(schema instanceof z.ZodType)) continue;
        try {
          fastSerializer(schema);
          compiled++;
        } catch (err) {
          failures.push(`${route.method} ${route.url} ${status}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(compiled).toBeGreaterThan(300);
  });
});
