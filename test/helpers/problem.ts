import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { Problem } from "../../src/platform/http/errors.js";

/** Asserts the one error body (RFC 9457, application/problem+json) with this status; returns it. */
export function expectProblem(res: LightMyRequestResponse, status: number): Problem {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = res.json() as Problem;
  expect(body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.any(String),
  });
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

/** 401 problem with the Bearer challenge. */
export function expectUnauthorized(res: LightMyRequestResponse): Problem {
  const body = expectProblem(res, 401);
  expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
  return body;
}
