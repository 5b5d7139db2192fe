/**
 * The answer pages of a host, as the questions layer uses them ({@link FormPages}): a page is
 * opened in the store for the call and question that asked, and its link is absolute, on the
 * configured public origin or the origin the MCP request came in on.
 */
import { ToolError } from '../errors.js';
import type { FormPages, PageCall } from '../questions/pages.js';
import { formMessageOf } from '../questions/pages.js';
import type { Question } from '../questions/render.js';
import { answerPagePath } from './handler.js';
import type { AnswerPageBinding, AnswerPageStore, PageAnswer } from './store.js';

/** Options of {@link createFormPages}. */
export interface FormPagesOptions {
  readonly store: AnswerPageStore;
  /** The path pages are served under (the handler's). */
  readonly path: string;
  /** The origin of the links (`https://mcp.example.com`); absent, the origin of the request that asked. */
  readonly publicOrigin?: string | undefined;
}

function pageBindingOf(call: PageCall, question: Question): AnswerPageBinding {
  return { ...call, questionDigest: question.rendered.digest };
}

function requestedSchemaOf(question: Question): Readonly<Record<string, unknown>> {
  const { request } = question.rendered;
  return request.method === 'elicitation/create' && 'requestedSchema' in request.params
    ? request.params.requestedSchema
    : {};
}

/** The {@link FormPages} over `options.store`. */
export function createFormPages(options: FormPagesOptions): FormPages {
  const { store, path, publicOrigin } = options;
  return {
    async open(call, question, requestUrl) {
      const origin = publicOrigin ?? (requestUrl === undefined ? undefined : new URL(requestUrl).origin);
      if (origin === undefined) {
        throw new ToolError(
          `Resolver '${question.label}': the answer page has no address to link to (no public origin is configured, and this request has no URL). Set the answerPage option's publicOrigin.`,
        );
      }
      const page = await store.open(pageBindingOf(call, question), {
        message: formMessageOf(question),
        requestedSchema: requestedSchemaOf(question),
      });
      return new URL(answerPagePath(page.pageId, path), origin).href;
    },
    take: (call, question) => store.take(pageBindingOf(call, question)),
    async keep(call, question, answer) {
      const binding = pageBindingOf(call, question);
      const page = await store.open(binding, {
        message: formMessageOf(question),
        requestedSchema: requestedSchemaOf(question),
      });
      await store.submit(page.pageId, answer as PageAnswer);
    },
  };
}
