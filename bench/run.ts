import { benchBanking } from "./banking.js";
import { benchBc3 } from "./bc3-import.js";
import { benchDocuments } from "./documents.js";
import { benchHttp } from "./http.js";
import { benchIdentity } from "./identity.js";
import { benchLedger } from "./ledger.js";
import { benchMcpSection } from "./mcp.js";
import { benchMemory } from "./memory.js";
import { benchPeer } from "./peer.js";
import { benchStart } from "./start.js";
import { benchTax } from "./tax.js";

/** npm run bench [-- section...]: runs on PostgreSQL (BENCH_DATABASE_URL, default the local server). */
const sections: Record<string, () => Promise<void>> = {
  identity: benchIdentity,
  bc3: benchBc3,
  ledger: benchLedger,
  mcp: benchMcpSection,
  documents: benchDocuments,
  tax: benchTax,
  banking: benchBanking,
  start: benchStart,
  memory: benchMemory,
  peer: benchPeer,
  http: benchHttp,
};

const wanted = process.argv.slice(2).filter((a) => a !== "--");
const chosen = wanted.length ? wanted : Object.keys(sections);
for (const name of chosen) {
  const run = sections[name];
  if (!run) {
    console.error(`unknown bench section ${name}; known: ${Object.keys(sections).join(", ")}`);
    process.exit(1);
  }
  await run();
}
process.exit(0);
