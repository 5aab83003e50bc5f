// The limiter's @upstash/redis client hands replies on as Redis sent them, without the JSON parsing
// @upstash/redis applies by default (rawRedis in algorithm.ts).
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";
import { describe, expect, it } from "vitest";
import { rawRedis } from "./algorithm.ts";

function answering(result: unknown): Requester & { bodies: unknown[] } {
  const bodies: unknown[] = [];
  return {
    bodies,
    request: <TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> => {
      bodies.push(req.body);
      return Promise.resolve({ result: result as TResult });
    },
  };
}

describe("rawRedis", () => {
  const reply = [1, 1795716558821, "49", "[2]", "PONG"];

  it("returns a script's reply exactly as the requester answered it", async () => {
    const requester = answering(reply);
    const got = await rawRedis(requester).evalsha("abc", ["k"], ["a"]);
    expect(got).toEqual(reply);
    expect(requester.bodies).toEqual([["evalsha", "abc", 1, "k", "a"]]);
  });

  it("differs from @upstash/redis's default, which parses every element as JSON", async () => {
    expect(await new Redis(answering(reply)).evalsha("abc", ["k"], ["a"])).toEqual([1, 1795716558821, 49, [2], "PONG"]);
  });

  it("keeps status replies and deletions as they are", async () => {
    expect(await rawRedis(answering("PONG")).ping()).toBe("PONG");
    expect(await rawRedis(answering(3)).del("a", "b", "c")).toBe(3);
  });
});
