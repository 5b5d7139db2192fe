/**
 * Who may see and answer a page besides holding its link: a page bound to a principal is let
 * through to the browser's user when that user is the person asked. Two gates: `browserUser` (the
 * site's own login) and the sign-in through the authorization server (`signIn.ts`).
 */
import type { BrowserUser } from './browserUser.js';
import { answersFor } from './browserUser.js';
import { notYoursPage } from './html.js';
import type { AnswerPage } from '../pageStore/store.js';

/** Decides who sees and answers pages, and serves any routes of its own under the pages' path. */
export interface PageGate {
  /** `undefined` to show or take the page, else the response given instead (sign in first, 403). */
  admit(request: Request, url: URL, page: AnswerPage, pageId: string): Promise<Response | undefined>;
  /** The response to a request of the gate's own under the path (the sign-in's callback), else `undefined`. */
  route(request: Request, url: URL): Promise<Response | undefined>;
}

/** The gate of `browserUser` (none given: the link is the only key). */
export function browserUserGate(
  browserUser: ((request: Request) => BrowserUser | Promise<BrowserUser>) | undefined,
): PageGate {
  return {
    async admit(request, _url, page) {
      if (browserUser === undefined || page.principal === undefined) return undefined;
      return answersFor(page.principal, await browserUser(request)) ? undefined : notYoursPage();
    },
    route: () => Promise.resolve(undefined),
  };
}
