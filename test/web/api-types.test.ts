import { describe, expect, it } from "vitest";
import { apiTypeDifferences } from "../../scripts/api-types.js";

describe("the web app's generated API types", () => {
  it("match the routes the server declares (run `npm run gen:api` after changing a route)", async () => {
    // The first differing lines are in the failure, so a difference seen once in CI explains itself.
    expect(await apiTypeDifferences()).toEqual([]);
  }, 60_000);
});
