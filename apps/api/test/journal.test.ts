// The journal of upstream answers on disk: durable files, shared safely by processes on other databases.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@fiskal/db";
import { createAnswerJournal, createReconciler, type UpstreamAnswer } from "../src/records/journal.ts";

const log = pino({ level: "silent" });
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "fiskal-journal-unit-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const answer = (id: string): UpstreamAnswer => ({
  kind: "invoice",
  id,
  accountId: "0195b2a4-0000-7000-8000-000000000001",
  idempotencyRecordId: null,
  jir: "6f0b5f2e-7d0c-4b9a-9d6e-3f1f4f6a2b11",
  receivedAt: "2026-11-23T10:00:00.000Z",
  response: { id, jir: "6f0b5f2e-7d0c-4b9a-9d6e-3f1f4f6a2b11" },
});

describe("answer journal", () => {
  it("writes one complete file per answer and leaves no temporary file behind", async () => {
    const journal = createAnswerJournal({ dir: path.join(dir, "a"), database: "db-a", log });
    await journal.write(answer("0195b2a4-0000-7000-8000-00000000000a"));
    expect(await readdir(journal.dir)).toEqual(["invoice-0195b2a4-0000-7000-8000-00000000000a.json"]);
    const entry = JSON.parse(await readFile(path.join(journal.dir, "invoice-0195b2a4-0000-7000-8000-00000000000a.json"), "utf8"));
    expect(entry).toMatchObject({ kind: "invoice", database: "db-a", jir: "6f0b5f2e-7d0c-4b9a-9d6e-3f1f4f6a2b11" });
    expect((await journal.entries()).map((e) => e.entry.id)).toEqual(["0195b2a4-0000-7000-8000-00000000000a"]);
  });

  it("leaves entries of another database alone, and ignores files that are not entries", async () => {
    const shared = path.join(dir, "shared");
    const mine = createAnswerJournal({ dir: shared, database: "db-a", log });
    const theirs = createAnswerJournal({ dir: shared, database: "db-b", log });
    await mine.write(answer("0195b2a4-0000-7000-8000-00000000000b"));
    await writeFile(path.join(shared, ".invoice-half-written.tmp"), "{");
    await writeFile(path.join(shared, "invoice-0195b2a4-0000-7000-8000-00000000000c.json.conflict"), "{}");
    expect(await theirs.entries()).toEqual([]);
    // No database call happens for entries that are not this database's.
    const db = new Proxy({} as Db, { get: () => { throw new Error("the database must not be used"); } });
    expect(await createReconciler({ db, journal: theirs, log }).runOnce()).toEqual({ stored: 0, waiting: 0 });
    expect((await mine.entries()).map((e) => e.entry.id)).toEqual(["0195b2a4-0000-7000-8000-00000000000b"]);
  });

  it("a missing directory has no entries", async () => {
    const journal = createAnswerJournal({ dir: path.join(dir, "never-created"), database: "db-a", log });
    expect(await journal.entries()).toEqual([]);
  });
});
