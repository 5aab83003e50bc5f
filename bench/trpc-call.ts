// The cost of one procedure call for POST /v1/validate/oib, no HTTP, no Redis, no database, three
// ways in the same run: through a tRPC caller on the app router (how /trpc runs it: the API-key
// middleware, input and output validation, the resolver), directly as the REST path runs it in
// production (trpc.ts `directCall`: the gate's verdict, the input schema, the resolver) and with
// output validation on as in development and the tests; beside them the resolver's own work
// (checkOib). Prints one JSON line.
//
//   BENCH_CALLS (default 50000 per round; 5 rounds, the median is reported)
import { checkOib } from "@fiskal/fiscal";
import { createCallerFactory, directCall, type Context } from "../apps/api/src/trpc.ts";
import { appRouter } from "../apps/api/src/router.ts";
import { procedureMetas } from "../apps/api/src/http/routes.ts";

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

const procedure = procedureMetas(appRouter).find(([path]) => path === "oib.validate")![3];
const production = directCall(procedure, "oib.validate", { validateOutput: false })!;
const development = directCall(procedure, "oib.validate", { validateOutput: true })!;
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const viaTrpc: number[] = [];
const directProduction: number[] = [];
const directDevelopment: number[] = [];
const resolver: number[] = [];
for (let r = 0; r < 5; r++) {
  viaTrpc.push(await round(() => createCaller({ ...ctx }).oib.validate({ oib: "69435151530" })));
  directProduction.push(await round(() => production({ ...ctx }, { oib: "69435151530" })));
  directDevelopment.push(await round(() => development({ ...ctx }, { oib: "69435151530" })));
  resolver.push(await round(() => checkOib("69435151530")));
}
const round3 = (n: number) => Math.round(n * 1000) / 1000;
console.log(
  JSON.stringify({
    bench: "trpc.call",
    procedure: "oib.validate",
    usPerCall: round3(median(viaTrpc)),
    directUsPerCall: round3(median(directProduction)),
    directWithOutputValidationUsPerCall: round3(median(directDevelopment)),
    resolverAloneUsPerCall: round3(median(resolver)),
  }),
);
