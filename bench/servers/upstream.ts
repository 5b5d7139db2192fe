/**
 * WAITING ON UPSTREAM — for measuring only, never loaded by the library. Imported by a bench server
 * started with `--upstream`, it gives the installed SDK's `Protocol` the `_onclose` of
 * contributing/upstream/sdk-exchange-scoped-sends.patch (change 2): the `ConnectionClosed` error is
 * built only when a response handler or a request handler is pending, instead of on every close of
 * a per-request instance. Same behaviour otherwise; the body is the SDK 2.4.0 one with that change.
 */
import { Protocol, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';

/** The fields `_onclose` touches (private in the SDK's types). */
interface ClosingProtocol {
  _responseHandlers: Map<number, (response: Error) => void>;
  _progressHandlers: Map<number, unknown>;
  _pendingDebouncedNotifications: Set<string>;
  _timeoutInfo: Map<number, { timeoutId: ReturnType<typeof setTimeout> }>;
  _requestHandlerAbortControllers: Map<unknown, AbortController>;
  _transport: unknown;
  onclose?: () => void;
}

function lazyErrorOnClose(this: ClosingProtocol): void {
  const responseHandlers = this._responseHandlers;
  this._responseHandlers = new Map();
  this._progressHandlers.clear();
  this._pendingDebouncedNotifications.clear();
  for (const info of this._timeoutInfo.values()) clearTimeout(info.timeoutId);
  this._timeoutInfo.clear();
  const requestHandlerAbortControllers = this._requestHandlerAbortControllers;
  this._requestHandlerAbortControllers = new Map();
  let error: SdkError | undefined;
  const closed = () => (error ??= new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  this._transport = undefined;
  try {
    this.onclose?.();
  } finally {
    for (const handler of responseHandlers.values()) handler(closed());
    for (const controller of requestHandlerAbortControllers.values()) controller.abort(closed());
  }
}

Object.defineProperty(Protocol.prototype, '_onclose', { value: lazyErrorOnClose, writable: true, configurable: true });
