import { it } from "vitest";
import { createTestApp } from "../../../test/helpers/app.js";
it("p", async () => { const t = await createTestApp(); const r = await t.app.inject({method:"GET",url:"/api/openapi.json"}); console.log(Object.keys(r.json().paths).filter(p=>p.includes("mcp"))); await t.close(); });
