// One process of a multi-process pacing run: waits for the common start, runs its share of the
// calls through one client and prints its result as JSON. Arguments as JSON in argv[2]:
// { baseUrl, apiKey, calls, concurrency, codes, startAt, redisUrl?, namespace? }
import { runMixed } from "./pacing.ts";

const args = JSON.parse(process.argv[2]!) as {
  baseUrl: string;
  apiKey: string;
  calls: number;
  concurrency: number;
  codes: string[];
  startAt: number;
  redisUrl?: string;
  namespace?: string;
  trace?: boolean;
};
await new Promise((r) => setTimeout(r, Math.max(0, args.startAt - Date.now())));
const result = await runMixed({
  baseUrl: args.baseUrl,
  apiKey: args.apiKey,
  calls: args.calls,
  concurrency: args.concurrency,
  codes: args.codes,
  trace: args.trace,
  client: args.redisUrl ? { sharedPacing: { redis: args.redisUrl, namespace: args.namespace } } : {},
});
process.stdout.write(`${JSON.stringify(result)}\n`);
