// The baseline: the same JSON request answered by a bare node:http handler (parse body, check, reply).
import { createServer } from "node:http";
import { validOib } from "./oib.mjs";

createServer((req, res) => {
  if (req.url === "/healthz") return res.end("ok");
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const { oib } = JSON.parse(Buffer.concat(chunks).toString());
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ oib, valid: validOib(oib) }));
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
