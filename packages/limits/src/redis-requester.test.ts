/**
 * The RESP codec on its own, and the requester against private redis-server processes (password,
 * database number, a server that stops answering, one that goes away and comes back).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "@upstash/redis";
import { Ratelimit } from "@upstash/ratelimit";
import { encodeCommand, RedisReplyError, RespParser, RespProtocolError, type Reply } from "./resp.ts";
import { createRedisRequester, parseRedisUrl } from "./redis-requester.ts";
import { freePort, sleep, startRedis, stopAllRedis } from "./test-redis.ts";

describe("RESP codec", () => {
  it("encodes a command as an array of bulk strings, counting bytes, not characters", () => {
    expect(encodeCommand(["SET", "ključ", 42, true])).toBe("*4\r\n$3\r\nSET\r\n$6\r\nključ\r\n$2\r\n42\r\n$4\r\ntrue\r\n");
  });

  const stream =
    "+OK\r\n-ERR wrong\r\n:-17\r\n$5\r\nhe\r\no\r\n$-1\r\n*-1\r\n*0\r\n" +
    "*3\r\n:1\r\n*2\r\n$3\r\nabc\r\n$-1\r\n-NOSCRIPT nope\r\n$6\r\nčšć\r\n:9007199254740991\r\n";
  const expected = [
    "OK",
    new RedisReplyError("ERR wrong"),
    -17,
    "he\r\no",
    null,
    null,
    [],
    [1, ["abc", null], new RedisReplyError("NOSCRIPT nope")],
    "čšć",
    9007199254740991,
  ];

  it("parses every reply type, whole", () => {
    const out: Reply[] = [];
    new RespParser((r) => out.push(r)).feed(Buffer.from(stream));
    expect(out).toEqual(expected);
    expect(out[1]).toBeInstanceOf(RedisReplyError);
  });

  it("parses the same replies whatever the chunk boundaries (split at every byte, and byte by byte)", () => {
    const bytes = Buffer.from(stream);
    for (let cut = 1; cut < bytes.length; cut++) {
      const out: Reply[] = [];
      const parser = new RespParser((r) => out.push(r));
      parser.feed(bytes.subarray(0, cut));
      parser.feed(bytes.subarray(cut));
      expect(out, `cut at ${cut}`).toEqual(expected);
    }
    const out: Reply[] = [];
    const parser = new RespParser((r) => out.push(r));
    for (const byte of bytes) parser.feed(Buffer.from([byte]));
    expect(out).toEqual(expected);
  });

  it("rejects a stream that is not RESP", () => {
    expect(() => new RespParser(() => {}).feed(Buffer.from("HTTP/1.1 400 Bad Request\r\n"))).toThrow(RespProtocolError);
    expect(() => new RespParser(() => {}).feed(Buffer.from(":12a\r\n"))).toThrow(RespProtocolError);
  });
});

describe("parseRedisUrl", () => {
  it("reads host, port, TLS, credentials and database", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6380")).toEqual({ host: "127.0.0.1", port: 6380, tls: false, username: undefined, password: undefined, db: 0 });
    expect(parseRedisUrl("rediss://user:p%40ss@cache.example:6390/3")).toEqual({ host: "cache.example", port: 6390, tls: true, username: "user", password: "p@ss", db: 3 });
    expect(parseRedisUrl("redis://:secret@[::1]/2")).toMatchObject({ host: "::1", port: 6379, password: "secret", db: 2 });
    expect(() => parseRedisUrl("http://localhost")).toThrow(/redis:\/\//);
    expect(() => parseRedisUrl("redis://localhost/x")).toThrow(/database number/);
  });
});

afterAll(stopAllRedis);

describe("Redis requester", () => {
  it("authenticates, selects the database and keeps replies in command order under pipelining", async () => {
    const port = await freePort();
    await startRedis(port, ["--requirepass", "tajna lozinka"]);
    const rq = createRedisRequester(`redis://:${encodeURIComponent("tajna lozinka")}@127.0.0.1:${port}/5`, 500);
    await rq.ready(2_000);
    await rq.send(["SET", "k", "db5"]);
    // the key went to database 5
    expect(await rq.send(["EVAL", "redis.call('SELECT', 0); return redis.call('EXISTS', 'k')", 0])).toBe(0);
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => rq.send(["INCRBY", "n", i])));
    let sum = 0;
    expect(replies).toEqual(Array.from({ length: 500 }, (_, i) => (sum += i)));
    await expect(rq.send(["INCR", "k"])).rejects.toThrow(/not an integer/);
    await rq.close();

    const wrong = createRedisRequester(`redis://:wrong@127.0.0.1:${port}`, 500);
    await expect(wrong.ready(2_000)).rejects.toThrow(/WRONGPASS|invalid password/);
    await wrong.close();
  });

  it("serves @upstash/ratelimit: scripts without the shebang, and EVAL when the script cache was flushed", async () => {
    const port = await freePort();
    await startRedis(port);
    const rq = createRedisRequester(`redis://127.0.0.1:${port}`, 500);
    await rq.ready(2_000);
    const rl = new Ratelimit({ redis: new Redis(rq), limiter: Ratelimit.slidingWindow(2, "10 s"), prefix: "t", ephemeralCache: false, timeout: 0, enableTelemetry: false });
    expect((await rl.limit("a")).success).toBe(true);
    await rq.send(["SCRIPT", "FLUSH"]);
    expect((await rl.limit("a")).success).toBe(true);
    expect((await rl.limit("a")).success).toBe(false);
    await rq.close();
  });

  it("loads an Upstash script with the shebang Redis 7 refuses: SCRIPT LOAD answers the original's hash, which EVALSHA then runs", async () => {
    const port = await freePort();
    await startRedis(port);
    const rq = createRedisRequester(`redis://127.0.0.1:${port}`, 500);
    await rq.ready(2_000);
    const redis = new Redis(rq);
    const script = `#!lua flags=allow-key-locking\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`;
    const sha = await redis.scriptLoad(script);
    expect(sha).toBe(createHash("sha1").update(script).digest("hex"));
    expect(await redis.evalsha(sha, ["k"], ["2"])).toBe(2);
    // the server holds the script without its first line
    expect(await rq.send(["SCRIPT", "EXISTS", createHash("sha1").update(script.slice(script.indexOf("\n") + 1)).digest("hex")])).toEqual([1]);
    // a hash never seen answers NOSCRIPT, as Upstash does, so that the client sends the script
    await expect(redis.evalsha("0".repeat(40), ["k"], ["1"])).rejects.toThrow(/NOSCRIPT/);
    await rq.close();
  });

  it("fails in-flight commands when the server stops answering, fails fast while down, and reconnects", async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const rq = createRedisRequester(`redis://127.0.0.1:${port}`, 100);
    await rq.ready(2_000);
    expect(await rq.send(["PING"])).toBe("PONG");

    server.kill("SIGSTOP");
    const started = performance.now();
    await expect(rq.send(["PING"])).rejects.toThrow(/did not answer within 100 ms/);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(400);
    server.kill("SIGCONT");

    // back in the background, without any call to wait on
    const deadline = Date.now() + 3_000;
    let reply: unknown = null;
    while (reply !== "PONG" && Date.now() < deadline) {
      reply = await rq.send(["PING"]).catch(() => null);
      await sleep(20);
    }
    expect(reply).toBe("PONG");

    const exited = once(server, "exit");
    server.kill("SIGKILL");
    await exited;
    await sleep(50);
    const t0 = performance.now();
    await expect(rq.send(["PING"])).rejects.toThrow(/not connected/);
    expect(performance.now() - t0).toBeLessThan(20);

    await startRedis(port);
    const deadline2 = Date.now() + 3_000;
    reply = null;
    while (reply !== "PONG" && Date.now() < deadline2) {
      reply = await rq.send(["PING"]).catch(() => null);
      await sleep(20);
    }
    expect(reply).toBe("PONG");
    await rq.close();
    await expect(rq.send(["PING"])).rejects.toThrow(/closed/);
  });

  it("speaks TLS for rediss:// and refuses a server whose certificate it cannot verify", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fiskal-redis-tls-"));
    try {
      const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { cwd: dir, encoding: "utf8" });
      expect(made.status, made.stderr).toBe(0);
      const port = await freePort();
      await startRedis(0, ["--tls-port", String(port), "--tls-cert-file", path.join(dir, "cert.pem"), "--tls-key-file", path.join(dir, "key.pem"), "--tls-auth-clients", "no"], port);
      const ca = readFileSync(path.join(dir, "cert.pem"));
      const rq = createRedisRequester(`rediss://localhost:${port}`, 500, { tls: { ca } });
      await rq.ready(3_000);
      expect(await rq.send(["ECHO", "šifrirano"])).toBe("šifrirano");
      await rq.close();

      const untrusted = createRedisRequester(`rediss://localhost:${port}`, 500);
      await expect(untrusted.ready(3_000)).rejects.toThrow(/self[- ]signed|certificate/i);
      await untrusted.close();
      // plain RESP to a TLS port gets no answer, and times out instead of hanging
      const plain = createRedisRequester(`redis://127.0.0.1:${port}`, 100);
      await plain.ready(3_000);
      await expect(plain.send(["PING"])).rejects.toThrow(/did not answer|closed/);
      await plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a refused connection at once instead of waiting out ready()", async () => {
    const port = await freePort();
    const rq = createRedisRequester(`redis://127.0.0.1:${port}`, 100);
    const t0 = performance.now();
    await expect(rq.ready(5_000)).rejects.toThrow(/unreachable/);
    expect(performance.now() - t0).toBeLessThan(1_000);
    await rq.close();
  });
});
