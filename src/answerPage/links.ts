/**
 * The answer page's links: a page opened for a question (`pageStore/pages.ts`) as the absolute URL
 * a person opens, on the configured public origin or the origin the MCP request came in on.
 */
import { ToolError } from '../errors.js';
import type { FormPages } from '../pageStore/pages.js';
import type { AnswerPageBinding } from '../pageStore/store.js';
import type { Question } from '../questions/render.js';
import { answerPagePath } from './handler.js';

/** The answer page's pages: a store's pages, and the link to each. */
export interface PageLinks extends FormPages {
  /**
   * The absolute URL of the page asking `question` under `binding` (as `openPage` opens it);
   * `request` gives the origin when none is configured.
   */
  open(binding: AnswerPageBinding, question: Question, request: Request | undefined): Promise<string>;
}

/** Options of {@link createPageLinks}. */
export interface PageLinksOptions {
  /** The path pages are served under (the handler's). */
  readonly path: string;
  /** The origin of the links (`https://mcp.example.com`); absent, the origin of the request that asked. */
  readonly publicOrigin?: string | undefined;
}

/** `pages` with the link to each, served under `options.path`. */
export function createPageLinks(pages: FormPages, options: PageLinksOptions): PageLinks {
  const { path, publicOrigin } = options;
  return {
    ...pages,
    async open(binding, question, request) {
      const origin = publicOrigin ?? (request === undefined ? undefined : new URL(request.url).origin);
      if (origin === undefined) {
        throw new ToolError(
          `Resolver '${question.label}': the answer page has no address to link to (no public origin is configured, and this request has no URL). Set the answerPage option's publicOrigin.`,
        );
      }
      const page = await pages.openPage(binding, question, request);
      return new URL(answerPagePath(page.pageId, path), origin).href;
    },
  };
}
