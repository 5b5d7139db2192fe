/**
 * Reports when an HTTP response body is finished: read to the end, failed, or cancelled by the
 * consumer (a client that disconnects). Long-lived SSE bodies keep their session busy until then.
 */

/** How a response body ended: read to the end, failed, or cancelled by its consumer. */
export type BodyEnd = 'done' | 'failed' | 'cancelled';

/** Returns `response` with its body re-streamed so that `onEnd` runs exactly once when the body is done. */
export function observeBody(response: Response, onEnd: (how: BodyEnd) => void): Response {
  let ended = false;
  const end = (how: BodyEnd): void => {
    if (!ended) {
      ended = true;
      onEnd(how);
    }
  };
  if (response.body === null) {
    end('done');
    return response;
  }
  const source: ReadableStream<Uint8Array> = response.body;
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end('done');
          controller.close();
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        end('failed');
        controller.error(error);
      }
    },
    cancel(reason) {
      end('cancelled');
      return reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
