import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PREPARED_TOOLS } from "./tool-schemas.js";
import { TOOLS } from "./tools/index.js";

const sdkConversion = (schema: z.ZodType, io: "input" | "output") => ({
  type: "object",
  ...z.toJSONSchema(schema, { target: "draft-2020-12", io }),
});

describe("tool schemas converted once per process", () => {
  it("advertise exactly the JSON Schema the SDK would derive from each tool's Zod schemas", () => {
    expect(PREPARED_TOOLS.map((tool) => tool.spec.name)).toEqual(TOOLS.map((tool) => tool.name));
    for (const tool of PREPARED_TOOLS) {
      expect(tool.listed.inputSchema, tool.spec.name).toEqual(sdkConversion(tool.spec.input, "input"));
      expect(tool.listed.outputSchema, tool.spec.name).toEqual(sdkConversion(tool.spec.output, "output"));
      const std = tool.input["~standard"];
      expect(std.jsonSchema.input({ target: "draft-2020-12" })).toEqual(
        z.toJSONSchema(tool.spec.input, { target: "draft-2020-12", io: "input" }),
      );
    }
  });

  it("are frozen: no request can change what the next one is served", () => {
    const [first] = PREPARED_TOOLS;
    const json = first!.output["~standard"].jsonSchema.output({ target: "draft-2020-12" });
    expect(() => {
      (json as { type?: unknown }).type = "string";
    }).toThrow(TypeError);
    expect(() => {
      (first!.listed.inputSchema as { properties?: unknown }).properties = {};
    }).toThrow(TypeError);
  });

  it("validate with Zod, keeping the tools' own messages and defaults", async () => {
    const listContacts = PREPARED_TOOLS.find((tool) => tool.spec.name === "list_contacts")!;
    const validate = listContacts.input["~standard"].validate;
    expect(await validate({})).toEqual({ value: { limit: 50, offset: 0 } });
    const refused = await validate({ limit: 500, colour: "red" });
    const messages = (refused.issues ?? []).map((issue) => issue.message);
    expect(messages).toContain("limit is at most 200: fetch further pages with offset");
    expect(messages.join(" ")).toMatch(/Unknown argument colour: this tool accepts contact_type/);
  });
});
