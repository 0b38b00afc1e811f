import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { multipartFile } from "../../projects/test-support.js";
import { JPEG_LOGO, pngLogo } from "../test-support.js";

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
beforeAll(async () => {
  t = await createTestApp();
  companyId = await t.createCompany("Construcciones Rioja SL", "B12345674");
  otherCompanyId = await t.createCompany("Obras Ebro SA", "A58818501");
});
afterAll(async () => {
  await t?.close();
});

/** A well-formed PNG whose compressed pixels were replaced by noise. */
function damagedPixels(): Buffer {
  const png = Buffer.from(pngLogo(60, 20));
  const at = png.indexOf("IDAT") - 4;
  randomBytes(png.readUInt32BE(at)).copy(png, at + 8);
  return png;
}

const put = (token: string, id: string, content: Buffer, fileName = "logo.png") =>
  t.as(token, { method: "PUT", url: `/api/companies/${id}/logo`, ...multipartFile(content, fileName) });

describe("PUT /api/companies/{id}/logo", () => {
  it("stores a PNG and serves it back as uploaded", async () => {
    const png = pngLogo(90, 30);
    const res = await put(t.adminToken, companyId, png);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      company_id: companyId,
      content_type: "image/png",
      size_bytes: png.length,
      width: 90,
      height: 30,
    });
    const got = await t.as(t.adminToken, { method: "GET", url: `/api/companies/${companyId}/logo` });
    expect(got.statusCode).toBe(200);
    expect(got.headers["content-type"]).toBe("image/png");
    expect(got.rawPayload.equals(png)).toBe(true);
  });

  it("replaces it with a JPEG, whatever the file is called", async () => {
    const res = await put(t.adminToken, companyId, JPEG_LOGO, "logo.png");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ content_type: "image/jpeg", width: 24, height: 12 });
    const got = await t.as(t.adminToken, { method: "GET", url: `/api/companies/${companyId}/logo` });
    expect(got.headers["content-type"]).toBe("image/jpeg");
    expect(got.rawPayload.equals(JPEG_LOGO)).toBe(true);
  });

  it.each([
    ["a GIF named .png", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"), /PNG or JPEG/],
    ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /PNG or JPEG/],
    ["a PNG signature over noise", Buffer.concat([pngLogo().subarray(0, 8), randomBytes(200)]), /PNG/],
    ["a JPEG signature over noise", Buffer.concat([JPEG_LOGO.subarray(0, 4), randomBytes(200)]), /JPEG/],
    ["a PNG whose pixel data is damaged", damagedPixels(), /pixel data is damaged/],
    ["a PNG cut short", pngLogo().subarray(0, 60), /PNG image/],
    ["a PNG wider than 4000 pixels", pngLogo(4001, 2), /4001 x 2 pixels/],
  ])("refuses %s with a 415", async (_name, content, message) => {
    const res = await put(t.adminToken, otherCompanyId, content);
    expect(expectProblem(res, 415).detail).toMatch(message);
  });

  it("refuses an empty file (400) and one over 1 MB (413), storing nothing", async () => {
    expectProblem(await put(t.adminToken, otherCompanyId, Buffer.alloc(0)), 400);
    const big = Buffer.concat([pngLogo(), randomBytes(1024 * 1024)]);
    const res = await put(t.adminToken, otherCompanyId, big);
    expect(expectProblem(res, 413).detail).toMatch(/1 MB/);
    const got = await t.as(t.adminToken, { method: "GET", url: `/api/companies/${otherCompanyId}/logo` });
    expectProblem(got, 404);
  });

  it("needs companies:editar, and another company's logo does not exist for a restricted user", async () => {
    const reader = await t.userWith(["companies:leer"]);
    expectProblem(await put(reader.token, companyId, pngLogo()), 403);
    const restricted = await t.userWith(["companies:leer", "companies:editar"], {
      companyId: otherCompanyId,
    });
    expectProblem(await put(restricted.token, companyId, pngLogo()), 404);
    const read = await t.as(restricted.token, { method: "GET", url: `/api/companies/${companyId}/logo` });
    expectProblem(read, 404);
    const del = await t.as(restricted.token, { method: "DELETE", url: `/api/companies/${companyId}/logo` });
    expectProblem(del, 404);
  });

  it("answers 404 for an unknown company and 400 for a bad id", async () => {
    expectProblem(await put(t.adminToken, "0190f5a0-0000-7000-8000-000000000000", pngLogo()), 404);
    expectProblem(await put(t.adminToken, "not-a-uuid", pngLogo()), 400);
  });
});

describe("DELETE /api/companies/{id}/logo", () => {
  it("removes the logo; a second delete is a 404", async () => {
    expect((await put(t.adminToken, otherCompanyId, pngLogo())).statusCode).toBe(200);
    const url = `/api/companies/${otherCompanyId}/logo`;
    expect((await t.as(t.adminToken, { method: "DELETE", url })).statusCode).toBe(204);
    expectProblem(await t.as(t.adminToken, { method: "GET", url }), 404);
    expectProblem(await t.as(t.adminToken, { method: "DELETE", url }), 404);
  });
});
