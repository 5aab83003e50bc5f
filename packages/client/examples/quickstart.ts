// Runs against the local demo (`pnpm start` at the repository root prints the demo key):
//   FISKAL_API_KEY=fsk_test_… pnpm --filter @fiskal/client quickstart
// FISKAL_API_URL defaults to http://127.0.0.1:3001.
import { FiskalClient, isFiskalError } from "../src/index.ts";

const apiKey = process.env.FISKAL_API_KEY;
if (!apiKey) {
  console.error("Set FISKAL_API_KEY to an API key (pnpm start prints the demo key).");
  process.exit(1);
}

const fiskal = new FiskalClient({
  apiKey,
  baseUrl: process.env.FISKAL_API_URL ?? "http://127.0.0.1:3001",
  onRetry: (e) => console.log(`  … ${e.reason} on ${e.method} ${e.path}, retrying in ${e.waitMs} ms`),
});

try {
  const oib = await fiskal.validateOib("69435151530");
  console.log(`OIB ${oib.oib}: ${oib.valid ? "valid" : `invalid (${oib.reason})`}`);

  const hits = await fiskal.searchKpd({ q: "psenica", level: 5, limit: 3 });
  console.log(`KPD "psenica": ${hits.total} hits`);
  for (const hit of hits.results) console.log(`  ${hit.code}  ${hit.name}`);

  const invoice = await fiskal.fiscalize({
    oib: "69435151530",
    issued_at: new Date().toISOString(),
    number: String(Date.now() % 1_000_000_000),
    premises: "POSL1",
    device: "1",
    total: "125.00",
    payment_method: "K",
    operator_oib: "94577403194",
    vat_registered: true,
    sequence: "P",
    vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
  });
  console.log(`Fiscalized receipt ${invoice.number}: JIR ${invoice.jir}, ZKI ${invoice.zki}`);

  const limits = await fiskal.limits();
  console.log(`Rate limits (${limits.plan}):`);
  for (const w of limits.windows) {
    console.log(`  ${w.name.padEnd(7)} ${String(w.remaining).padStart(6)} / ${w.limit} left, resets ${new Date(w.reset * 1000).toISOString()}`);
  }
} catch (err) {
  if (!isFiskalError(err)) throw err;
  console.error(`${err.code}${err.status ? ` (HTTP ${err.status})` : ""}: ${err.message}`);
  if (err.details) console.error(JSON.stringify(err.details, null, 2));
  if (err.docUrl) console.error(`See ${err.docUrl}${err.requestId ? ` — request ${err.requestId}` : ""}`);
  process.exit(1);
}
