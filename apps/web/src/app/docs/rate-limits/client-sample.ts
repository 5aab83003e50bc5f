// The client shown under "Preporučeno ponašanje klijenta": complete TypeScript that runs as it is
// (client-sample.test.ts compiles it and runs it against a server answering 429), with a bounded
// number of attempts and a bounded wait.
export const CLIENT_SAMPLE = `const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const MAX_ATTEMPTS = 5; // slanja po pozivu, prvo uključeno
const MAX_WAIT_MS = 300_000; // dulje ne čekamo (npr. iscrpljena dnevna kvota)
let notBefore = 0; // Date.now() prije kojeg ne šaljemo sljedeći zahtjev

/** Mjerodavni prozor iz zaglavlja RateLimit: najmanje preostalih, kod jednakih veći t. */
function binding(header: string | null): { r: number; t: number } | undefined {
  let best: { r: number; t: number } | undefined;
  for (const item of (header ?? "").split(",")) {
    const r = /;r=(\\d+)/.exec(item);
    const t = /;t=(\\d+)/.exec(item);
    if (!r || !t) continue;
    const w = { r: Number(r[1]), t: Number(t[1]) };
    if (!best || w.r < best.r || (w.r === best.r && w.t > best.t)) best = w;
  }
  return best;
}

// init se pri ponavljanju šalje nepromijenjen (tijelo kao string): POST zadržava isti Idempotency-Key
export async function call(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    await sleep(notBefore - Date.now());
    const res = await fetch(url, init);
    if (res.status !== 429) {
      // usporite prije granice: ispod 5 preostalih pričekajte t mjerodavnog prozora
      const w = binding(res.headers.get("RateLimit"));
      if (w && w.r < 5 && w.t * 1000 <= MAX_WAIT_MS) notBefore = Date.now() + w.t * 1000;
      return res;
    }
    const retryAfter = Number(res.headers.get("Retry-After") ?? 60);
    const wait = retryAfter * 1000 * 2 ** (attempt - 1); // Retry-After, pa 2×, pa 4×…
    if (attempt >= MAX_ATTEMPTS || wait > MAX_WAIT_MS) return res; // odustanite: pozivatelj dobiva 429
    await res.body?.cancel();
    notBefore = Date.now() + wait;
  }
}`;
