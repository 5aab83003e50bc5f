// The bare handler of bench/bare-server.mjs with one rate-limit decision per request and its headers:
// the skeleton of the two floor servers, which differ only in how they decide.
import { createServer } from "node:http";
import { rateLimitHeaders, type Decision } from "@fiskal/limits";
import { validOib } from "./oib.mjs";

/** Listens on $PORT; a refusal answers 429, a degraded decision or a failed one 503 (counted as errors). */
export function serveDecided(decide: () => Promise<Decision>): void {
  createServer((req, res) => {
    if (req.url === "/healthz") return void res.end("ok");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { oib } = JSON.parse(Buffer.concat(chunks).toString()) as { oib: string };
      decide().then(
        (d) => {
          if (!d.allowed || d.degraded) {
            res.statusCode = d.allowed ? 503 : 429;
            return void res.end();
          }
          for (const [name, value] of Object.entries(rateLimitHeaders(d))) res.setHeader(name, value);
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ oib, valid: validOib(oib) }));
        },
        () => {
          res.statusCode = 503;
          res.end();
        },
      );
    });
  }).listen(Number(process.env.PORT), "127.0.0.1");
}
