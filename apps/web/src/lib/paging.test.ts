import { describe, expect, it } from "vitest";
import { olderPagesFor, olderPagesOf } from "./paging";

describe("older pages", () => {
  it("are kept while the first page stays the same and dropped when a refresh replaces it", () => {
    const first = { items: ["e5", "e4"], nextCursor: "e4" };
    let state = olderPagesOf(first);
    expect(state).toEqual({ base: first, items: [], cursor: "e4" });
    state = { base: first, items: ["e3", "e2"], cursor: "e2" };
    expect(olderPagesFor(state, first)).toBe(state);

    // A new event arrived and the server sent a new first page: its cursor, not the stale "e2", is next.
    const refreshed = { items: ["e6", "e5"], nextCursor: "e5" };
    expect(olderPagesFor(state, refreshed)).toEqual({ base: refreshed, items: [], cursor: "e5" });
    expect(olderPagesFor(state, { items: ["e6"], nextCursor: null })).toMatchObject({ items: [], cursor: null });
  });
});
