// "Load older" paging on top of a first page that the server may replace at any time.

export type FirstPage<T> = { items: T[]; nextCursor: string | null };

/** Pages loaded after `base`, and the cursor for the next one. */
export type OlderPages<T> = { base: FirstPage<T>; items: T[]; cursor: string | null };

export function olderPagesOf<T>(first: FirstPage<T>): OlderPages<T> {
  return { base: first, items: [], cursor: first.nextCursor };
}

/**
 * The older pages that belong to `first`. After a refresh the first page is a new object: pages loaded
 * against the old one would repeat or skip rows, so paging starts over from the new cursor.
 */
export function olderPagesFor<T>(state: OlderPages<T>, first: FirstPage<T>): OlderPages<T> {
  return state.base === first ? state : olderPagesOf(first);
}
