// KPD search latency over the real 5,828-row file. Budget: p50 < 0.5 ms, p99 < 1 ms per query.
// Run: pnpm --filter @fiskal/fiscal bench
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { kpdIndexFromCsv } from "../src/index.ts";

const csv = readFileSync(fileURLToPath(new URL("../../db/data/kpd-2025.csv", import.meta.url)), "utf8");
const index = kpdIndexFromCsv(csv);
const queries = ["psenica", "usluge programiranja", "62.1", "62.10.11", "kukuruz", "medjunarodni prijevoz", "ostali proizvodi", "meso", "software", "usluge", "01"];
const ROUNDS = 300;

for (let i = 0; i < 50; i++) for (const q of queries) index.search(q);
const samples: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  for (const q of queries) {
    const t = process.hrtime.bigint();
    index.search(q);
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
samples.sort((a, b) => a - b);
const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;
const p50 = pct(50);
const p99 = pct(99);
console.log(`kpd search: ${samples.length} queries over ${index.size} rows, p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${samples.at(-1)!.toFixed(3)} ms`);
if (p50 > 0.5 || p99 > 1) {
  console.error("over budget (p50 0.5 ms, p99 1 ms)");
  process.exit(1);
}
