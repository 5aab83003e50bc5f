// Operator CLI: `pnpm fiskal <command>`. Talks to DATABASE_URL, or to the embedded database.
import { parseArgs } from "node:util";
import path from "node:path";
import { createAccount, createApiKey, revokeApiKey, setPlan } from "@fiskal/accounts";
import {
  createDb,
  EmbeddedPostgresBusyError,
  migrate,
  recordAudit,
  startEmbeddedPostgres,
  type Db,
  type Plan,
} from "@fiskal/db";
import { CustomLimits, describeLimitIssues, ENDPOINT_GROUPS, isPlanName, limitsFor, PLAN_NAMES } from "@fiskal/limits";
import { loadEnv } from "./env.ts";
import { CERTIFICATE_USAGE, certificateCommand } from "./procedures/certificates/cli.ts";
import { RECEIPTS_USAGE, receiptsCommand } from "./receipts-cli.ts";
import { ARCHIVE_USAGE, archiveExportCommand, archiveVerifyCommand } from "./archive/cli.ts";

const USAGE = `Fiskal operator CLI

  pnpm fiskal account create --name NAME [--plan SANDBOX|STARTER|BUSINESS] [--oib OIB] [--with-key]
  pnpm fiskal account create --name NAME --plan ENTERPRISE --per-minute N --per-day N --burst N
                             [--endpoint GROUP=N ...] [--with-key]
  pnpm fiskal account list
  pnpm fiskal account show --account ID
  pnpm fiskal key create --account ID [--name NAME]
  pnpm fiskal key list --account ID
  pnpm fiskal key revoke --account ID --key KEY_ID
  pnpm fiskal plan set --account ID --plan PLAN [--per-minute N --per-day N --burst N] [--endpoint GROUP=N ...]
${CERTIFICATE_USAGE}
${RECEIPTS_USAGE}
${ARCHIVE_USAGE}

GROUP is one of fiscalize, einvoice, kpd, oib: an Enterprise override of that dedicated per-minute limit.

Add --json for machine-readable output. Uses DATABASE_URL, else the embedded database
(the one a running \`pnpm start\` serves, or the data folder directly).`;

class UsageError extends Error {}

function int(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive whole number`);
  return n;
}

function plan(v: string | undefined): Plan {
  const p = (v ?? "SANDBOX").toUpperCase();
  if (!isPlanName(p)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(", ")}`);
  return p;
}

type Values = Record<string, string | boolean | string[] | undefined>;

function endpointOverrides(specs: string[] | undefined): Record<string, number> | undefined {
  if (!specs?.length) return undefined;
  const out: Record<string, number> = {};
  for (const spec of specs) {
    const m = /^(\w+)=(\d+)$/.exec(spec);
    if (!m || !(ENDPOINT_GROUPS as readonly string[]).includes(m[1]!)) {
      throw new UsageError(`--endpoint takes GROUP=N with GROUP one of ${ENDPOINT_GROUPS.join(", ")}; got "${spec}"`);
    }
    out[m[1]!] = int("endpoint", m[2]);
  }
  return out;
}

function custom(values: Values, p: Plan) {
  const given = ["per-minute", "per-day", "burst", "endpoint"].filter((k) => values[k] !== undefined);
  if (p !== "ENTERPRISE") {
    if (given.length) throw new UsageError("--per-minute/--per-day/--burst/--endpoint are only for --plan ENTERPRISE");
    return undefined;
  }
  const endpoints = endpointOverrides(values.endpoint as string[] | undefined);
  // What an operator may grant: the bounds and burst ≤ per minute ≤ per day (@fiskal/limits plans.ts).
  const parsed = CustomLimits.safeParse({
    perMinute: int("per-minute", values["per-minute"] as string),
    perDay: int("per-day", values["per-day"] as string),
    burst: int("burst", values.burst as string),
    ...(endpoints ? { endpoints } : {}),
  });
  if (!parsed.success) throw new UsageError(describeLimitIssues(parsed.error, "limits"));
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function need(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} is required`);
  if ((name === "account" || name === "key") && !UUID.test(v)) throw new UsageError(`--${name} must be an id (UUID), got "${v}"`);
  return v;
}

async function connect(): Promise<{ db: Db; close(): Promise<void> }> {
  const env = loadEnv();
  if (env.DATABASE_URL) {
    const db = createDb(env.DATABASE_URL, { max: 2 });
    return { db, close: () => db.$disconnect() };
  }
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(env.FISKAL_DATA_DIR, "pglite"), port: 0 });
  } catch (err) {
    // A running `pnpm start` (or API) owns the embedded database: talk to it over its socket.
    if (!(err instanceof EmbeddedPostgresBusyError)) throw err;
    const db = createDb(err.url, { max: 2 });
    return { db, close: () => db.$disconnect() };
  }
  await migrate(embedded.url);
  const db = createDb(embedded.url, { max: 2 });
  return {
    db,
    async close() {
      await db.$disconnect();
      await embedded.close();
    },
  };
}

function describeLimits(a: Parameters<typeof limitsFor>[0] & { plan: Plan }) {
  const l = limitsFor(a);
  const endpoints = Object.entries(l.endpoints ?? {}).map(([g, n]) => `${g} ${n}/min`);
  return `${l.burst}/s, ${l.perMinute}/min, ${l.perDay}/day${endpoints.length ? `; ${endpoints.join(", ")}` : ""}`;
}

export async function run(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      plan: { type: "string" },
      oib: { type: "string" },
      account: { type: "string" },
      key: { type: "string" },
      "per-minute": { type: "string" },
      "per-day": { type: "string" },
      burst: { type: "string" },
      endpoint: { type: "string", multiple: true },
      "with-key": { type: "boolean" },
      from: { type: "string" },
      to: { type: "string" },
      out: { type: "string" },
      file: { type: "string" },
      "password-file": { type: "string" },
      json: { type: "boolean" },
      id: { type: "string" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [noun, verb] = positionals;
  if (values.help || !noun) {
    out(USAGE);
    return values.help ? 0 : 2;
  }
  const json = values.json === true;
  const print = (human: string, data: unknown) => out(json ? JSON.stringify(data) : human);

  // Offline: reads the file only.
  if (noun === "archive" && verb === "verify") {
    try {
      return await archiveVerifyCommand(positionals[2], print, (m) => new UsageError(m));
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      out(json ? JSON.stringify({ error: err.message }) : `error: ${err.message}`);
      return 2;
    }
  }

  const { db, close } = await connect();
  try {
    switch (`${noun} ${verb}`) {
      case "account create": {
        const p = plan(values.plan);
        const account = await createAccount(db, { name: need(values, "name"), plan: p, oib: values.oib, custom: custom(values, p) });
        const key = values["with-key"] ? await createApiKey(db, account.id, "default") : null;
        print(
          `Account ${account.id} "${account.name}" on ${account.plan} (${describeLimits(account)})` +
            (key ? `\nAPI key (shown once): ${key.key}` : ""),
          { account: { id: account.id, name: account.name, plan: account.plan }, key: key && { id: key.id, key: key.key, prefix: key.prefix } },
        );
        return 0;
      }
      case "account list": {
        const accounts = await db.account.findMany({ orderBy: { createdAt: "asc" }, include: { _count: { select: { apiKeys: true } } } });
        print(
          accounts.map((a) => `${a.id}  ${a.plan.padEnd(10)}  ${describeLimits(a).padEnd(28)}  ${a.name}`).join("\n") || "No accounts.",
          accounts.map((a) => ({ id: a.id, name: a.name, plan: a.plan, keys: a._count.apiKeys })),
        );
        return 0;
      }
      case "account show": {
        const a = await db.account.findUnique({ where: { id: need(values, "account") } });
        if (!a) throw new UsageError("no such account");
        print(`${a.id} "${a.name}" ${a.plan} (${describeLimits(a)}), limits version ${a.limitsVersion}`, a);
        return 0;
      }
      case "key create": {
        const accountId = need(values, "account");
        if (!(await db.account.findUnique({ where: { id: accountId } }))) throw new UsageError("no such account");
        const key = await createApiKey(db, accountId, values.name ?? "cli");
        await recordAudit(db, { accountId, actor: "cli", action: "key.created", target: key.prefix, detail: { keyId: key.id, name: values.name ?? "cli" } });
        print(`API key ${key.id} (${key.prefix}…), shown once:\n${key.key}`, key);
        return 0;
      }
      case "key list": {
        const keys = await db.apiKey.findMany({ where: { accountId: need(values, "account") }, orderBy: { createdAt: "asc" } });
        print(
          keys
            .map((k) => `${k.id}  ${k.prefix}…  ${k.revokedAt ? "revoked " + k.revokedAt.toISOString() : "active"}  ${k.name}`)
            .join("\n") || "No keys.",
          keys.map((k) => ({ id: k.id, prefix: k.prefix, name: k.name, revokedAt: k.revokedAt, lastUsedAt: k.lastUsedAt })),
        );
        return 0;
      }
      case "key revoke": {
        const ok = await revokeApiKey(db, need(values, "account"), need(values, "key"));
        if (!ok) throw new UsageError("no active key with that id on that account");
        const revoked = await db.apiKey.findUniqueOrThrow({ where: { id: need(values, "key") }, select: { prefix: true, name: true } });
        await recordAudit(db, { accountId: need(values, "account"), actor: "cli", action: "key.revoked", target: revoked.prefix, detail: { keyId: need(values, "key"), name: revoked.name } });
        print("Key revoked; every API instance refuses it within 5 seconds.", { revoked: true });
        return 0;
      }
      case "archive export":
        return await archiveExportCommand(db, { accountId: need(values, "account"), from: values.from, to: values.to, out: values.out }, print, (m) => new UsageError(m));
      case "plan set": {
        const p = plan(need(values, "plan"));
        const a = await setPlan(db, need(values, "account"), p, custom(values, p));
        await recordAudit(db, { accountId: a.id, actor: "cli", action: "plan.set", target: a.plan, detail: { to: a.plan } });
        print(`Account ${a.id} now on ${a.plan} (${describeLimits(a)}); applies to the next request.`, {
          id: a.id,
          plan: a.plan,
          limitsVersion: a.limitsVersion,
        });
        return 0;
      }
      default:
        if (noun === "certificate") {
          return await certificateCommand(verb, { db, values, print, account: () => need(values, "account"), fail: (m) => new UsageError(m) });
        }
        if (noun === "receipts") {
          if (typeof values.id === "string" && !UUID.test(values.id)) throw new UsageError(`--id must be a receipt id (UUID), got "${values.id}"`);
          return await receiptsCommand(verb, {
            db,
            print,
            account: values.account === undefined ? undefined : need(values, "account"),
            id: values.id,
            force: values.force === true,
            fail: (m) => new UsageError(m),
          });
        }
        throw new UsageError(`unknown command "${positionals.join(" ")}"\n\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      out(json ? JSON.stringify({ error: err.message }) : `error: ${err.message}`);
      return 2;
    }
    throw err;
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`error: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
