// Server-rendered markup of the webhooks page's client component: every repeated row button names
// the endpoint or delivery it acts on.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh() {} }) }));

const { WebhooksManager } = await import("./WebhooksManager");

const endpoint = (id: string, url: string, enabled: boolean) => ({
  id,
  url,
  description: null,
  eventTypes: ["rate_limit.warning"],
  enabled,
  disabledReason: null,
  createdAt: "2026-11-21T10:00:00.000Z",
  updatedAt: "2026-11-21T10:00:00.000Z",
});

function labels(html: string): string[] {
  return [...html.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
}

describe("WebhooksManager", () => {
  it("gives every row button an accessible name with its endpoint URL or delivery", () => {
    const a = "https://a.primjer.hr/hook";
    const b = "https://b.primjer.hr/hook";
    const html = renderToStaticMarkup(
      createElement(WebhooksManager, {
        endpoints: [endpoint("11111111-1111-7111-8111-111111111111", a, true), endpoint("22222222-2222-7222-8222-222222222222", b, false)],
        events: {
          nextCursor: null,
          items: [
            {
              id: "msg_1",
              type: "webhook.test",
              createdAt: "2026-11-21T10:00:00.000Z",
              payload: "{}",
              deliveries: [
                { id: "d1", endpointId: "e1", endpointUrl: a, status: "succeeded", attemptCount: 1, nextAttemptAt: null, attempts: [] },
                { id: "d2", endpointId: "e2", endpointUrl: b, status: "failed", attemptCount: 7, nextAttemptAt: null, attempts: [] },
              ],
            },
          ],
        },
      }),
    );
    const names = labels(html);
    for (const name of [
      `Testni događaj za ${a}`,
      `Prikaži tajnu za ${a}`,
      `Nova tajna za ${a}`,
      `Isključi ${a}`,
      `Testni događaj za ${b}`,
      `Prikaži tajnu za ${b}`,
      `Nova tajna za ${b}`,
      `Uključi ${b}`,
      `Pošalji ponovno webhook.test msg_1 na ${a}`,
      `Pošalji ponovno webhook.test msg_1 na ${b}`,
    ]) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
  });
});
