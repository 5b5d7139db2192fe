/**
 * How often one page may be posted to: a page takes at most {@link PAGE_POSTS_PER_MINUTE} posts a
 * minute (a person fixing a form posts a few), then answers 429 with the seconds to wait. Counted
 * per process, in memory, for at most {@link MAX_COUNTED_PAGES} pages at once (the oldest window is
 * forgotten first); only posts that passed the page's form token are counted, so a client counts
 * only against pages it was shown.
 */

/** Posts one page takes in a minute. */
export const PAGE_POSTS_PER_MINUTE = 30;

/** Pages counted at once (about 100 bytes each). */
export const MAX_COUNTED_PAGES = 10_000;

const WINDOW_MS = 60_000;

/** The post budget of a handler's pages. */
export interface PostBudget {
  /** Counts a post to `pageId`: `undefined` when it is within the budget, else the seconds until the page takes posts again. */
  take(pageId: string): number | undefined;
}

/** A fresh budget, on `now` (ms since the epoch). */
export function createPostBudget(now: () => number = Date.now): PostBudget {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(pageId) {
      const at = now();
      let window = windows.get(pageId);
      if (window === undefined || at - window.start >= WINDOW_MS) {
        windows.delete(pageId);
        if (windows.size >= MAX_COUNTED_PAGES) windows.delete(windows.keys().next().value as string);
        window = { start: at, count: 0 };
        windows.set(pageId, window);
      }
      window.count += 1;
      if (window.count <= PAGE_POSTS_PER_MINUTE) return undefined;
      return Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
    },
  };
}
