// The baseline: the same JSON request answered by a bare node:http handler (parse body, check, reply).
import { createServer } from "node:http";

function valid(oib) {
  if (!/^\d{11}$/.test(oib)) return false;
  let a = 10;
  for (let i = 0; i < 10; i++) {
    a = (a + Number(oib[i])) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return (11 - a) % 10 === Number(oib[10]);
}

createServer((req, res) => {
  if (req.url === "/healthz") return res.end("ok");
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const { oib } = JSON.parse(Buffer.concat(chunks).toString());
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ oib, valid: valid(oib) }));
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
