import { describe, expect, it } from "vitest";
import { staleApiTypes } from "../../scripts/api-types.js";

describe("the web app's generated API types", () => {
  it("match the routes the server declares (run `npm run gen:api` after changing a route)", async () => {
    expect(await staleApiTypes()).toEqual([]);
  }, 60_000);
});
