import type { AuthedCtx } from "../../platform/http/context.js";
import { dniControlLetter } from "../../platform/tax-id.js";
import { type AgentValues, createAgent } from "./service.js";

const nif = (digits: string) => digits + dniControlLetter(digits);

/** The demo company's five sales agents (NIFs with their correct control letters). */
export const DEMO_AGENTS: (AgentValues & { code: string; name: string })[] = [
  {
    code: "AG01",
    name: "Lucía Fernández Gil",
    taxId: nif("50123456"),
    email: "lucia.fernandez@example.com",
    commissionPct: "3.00",
  },
  {
    code: "AG02",
    name: "Javier Moreno Sanz",
    taxId: nif("47234567"),
    email: "javier.moreno@example.com",
    commissionPct: "4.50",
  },
  {
    code: "AG03",
    name: "Carmen Ruiz Ortega",
    taxId: nif("33345678"),
    email: "carmen.ruiz@example.com",
    commissionPct: "5.00",
  },
  {
    code: "AG04",
    name: "Andrés Navarro Vidal",
    taxId: nif("29456789"),
    email: "andres.navarro@example.com",
    commissionPct: "2.50",
  },
  {
    code: "AG05",
    name: "Elena Castro Prieto",
    taxId: nif("71567890"),
    email: "elena.castro@example.com",
    commissionPct: "6.00",
  },
];

/** Creates the five demo agents in a company that has none of them yet; returns their ids. */
export async function loadAgentsDemo(ctx: AuthedCtx, companyId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const agent of DEMO_AGENTS) ids.push((await createAgent(ctx, { ...agent, companyId })).id);
  return ids;
}
