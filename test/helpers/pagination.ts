import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";

interface Caller {
  adminToken: string;
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

interface BoundedPage {
  data: Array<{ id: string }>;
  total: number;
  total_is_estimate: boolean;
}

/**
 * Walks a bounded list (`url` with its filters) in pages of `size`, once by skip and once by
 * after=<last id>, and expects both walks, and the one-page list, to give the same ids in the
 * same order, every page with the exact total. Returns the ids.
 */
export async function expectAfterWalksLikeSkip(api: Caller, url: string, size = 2): Promise<string[]> {
  const get = async (query: string) => {
    const res = await api.as(api.adminToken, {
      method: "GET",
      url: `${url}${url.includes("?") ? "&" : "?"}${query}`,
    });
    expect(res.statusCode, `${url} ${query}: ${res.body}`).toBe(200);
    return res.json() as BoundedPage;
  };
  const whole = await get("limit=10000");
  expect(whole.total_is_estimate).toBe(false);
  expect(whole.total).toBe(whole.data.length);
  expect(whole.total, `${url} needs more than one page of rows`).toBeGreaterThan(size);
  const walk = async (pageQuery: (ids: string[]) => string) => {
    const ids: string[] = [];
    for (;;) {
      const page = await get(`limit=${size}&${pageQuery(ids)}`);
      expect(page).toMatchObject({ total: whole.total, total_is_estimate: false });
      ids.push(...page.data.map((r) => r.id));
      if (page.data.length < size) return ids;
    }
  };
  const bySkip = await walk((ids) => `skip=${ids.length}`);
  const byAfter = await walk((ids) => (ids.length ? `after=${ids[ids.length - 1]}` : ""));
  const expected = whole.data.map((r) => r.id);
  expect(bySkip).toEqual(expected);
  expect(byAfter).toEqual(expected);
  return expected;
}

/** A cursor that is no row of the list (or not a uuid) is a 400 on `after`. */
export async function expectUnknownCursorRefused(api: Caller, url: string, foreignId: string) {
  for (const after of [foreignId, "00000000-0000-7000-8000-000000000000", "not-a-uuid"]) {
    const res = await api.as(api.adminToken, {
      method: "GET",
      url: `${url}${url.includes("?") ? "&" : "?"}after=${after}`,
    });
    expect(res.statusCode, `${url} after=${after}`).toBe(400);
    expect(res.json().errors, `${url} after=${after}`).toEqual([
      expect.objectContaining({ path: expect.stringMatching(/(^|\.)after$/) }),
    ]);
  }
}
