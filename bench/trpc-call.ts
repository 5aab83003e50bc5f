// The cost of one tRPC procedure call as the API makes it for POST /v1/validate/oib: a caller on the
// app router, the API-key middleware, input and output validation, the resolver. No HTTP, no
// Redis, no database. Beside it, the resolver's own work (checkOib) called directly in the same run.
// Prints one JSON line.
//
//   BENCH_CALLS (default 50000 per round; 5 rounds, the median is reported)
import { checkOib } from "@fiskal/fiscal";
import { createCallerFactory, type Context } from "../apps/api/src/trpc.ts";
import { appRouter } from "../apps/api/src/router.ts";

const CALLS = Number(process.env.BENCH_CALLS ?? 50_000);
const createCaller = createCallerFactory(appRouter);
// What the HTTP gate hands the procedure once a key is authenticated and admitted.
const ctx = {
  services: { portalUrl: "" },
  req: {},
  res: { setHeader() {} },
  requestId: "req_bench",
  principal: { accountId: "00000000-0000-0000-0000-000000000000", apiKeyId: "00000000-0000-0000-0000-000000000001", plan: "BUSINESS", limits: {}, limitsVersion: 1 },
  gateError: null,
  decision: null,
} as unknown as Context;

async function round(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / 1000 / CALLS;
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const viaTrpc: number[] = [];
const direct: number[] = [];
for (let r = 0; r < 5; r++) {
  viaTrpc.push(await round(() => createCaller({ ...ctx }).oib.validate({ oib: "69435151530" })));
  direct.push(await round(() => checkOib("69435151530")));
}
const round3 = (n: number) => Math.round(n * 1000) / 1000;
console.log(JSON.stringify({ bench: "trpc.call", procedure: "oib.validate", usPerCall: round3(median(viaTrpc)), resolverAloneUsPerCall: round3(median(direct)) }));
