/** `keptInitialize`: what a new legacy session keeps of its `initialize`, within the size limits. */
import { isInitializeRequest } from '@modelcontextprotocol/server';

import { heldBytes, NODE_BYTES } from '../../../state/heldBytes.js';
import { jsonRpcErrorResponse } from '../../jsonRpcError.js';

/** The limits {@link keptInitialize} checks (as the legacy leg has them), and where a refusal is reported. */
export interface InitializeLimits {
  /** Largest declared capabilities of an `initialize`, bytes of JSON. */
  readonly maxClientCapabilitiesHeldBytes: number;
  /** Largest initialize params one session keeps, bytes of JSON. */
  readonly maxLegacySessionHeldBytes: number;
  readonly onerror: (error: Error) => void;
}

/** What a new session keeps: the body with its `initialize` params reduced, those params, and their size. */
export interface KeptInitialize {
  readonly body: unknown;
  readonly params: Record<string, unknown>;
  readonly bytes: number;
}

/** The `initialize` params a session keeps: what the SDK server reads of them, nothing else. */
const KEPT_PARAMS = ['protocolVersion', 'capabilities', 'clientInfo'] as const;

/**
 * The parsed body with each `initialize` reduced to the params a session keeps, or the 400 to
 * answer when its declared capabilities or its kept params are over their limits.
 */
export function keptInitialize(body: unknown, limits: InitializeLimits): KeptInitialize | Response {
  let kept: { params: Record<string, unknown>; bytes: number } | undefined;
  let refusal: Response | undefined;
  const reduce = (message: unknown): unknown => {
    if (refusal !== undefined || !isInitializeRequest(message)) return message;
    const declared = message.params as Record<string, unknown>;
    const capabilitiesBytes = heldBytes(declared['capabilities'] ?? {});
    if (capabilitiesBytes > limits.maxClientCapabilitiesHeldBytes) {
      refusal = invalidParams(
        `initialize declares ${capabilitiesBytes} bytes of client capabilities (JSON, plus ${NODE_BYTES} per ` +
          `object, array and key), over this server's limit of ${limits.maxClientCapabilitiesHeldBytes} bytes ` +
          `(maxClientCapabilitiesHeldBytes)`,
        limits.onerror,
      );
      return message;
    }
    const params: Record<string, unknown> = {};
    for (const name of KEPT_PARAMS) if (declared[name] !== undefined) params[name] = declared[name];
    const bytes = heldBytes(params);
    if (bytes > limits.maxLegacySessionHeldBytes) {
      refusal = invalidParams(
        `initialize params (protocol version, capabilities, client info) take ${bytes} bytes (JSON, plus ` +
          `${NODE_BYTES} per object, array and key), over this server's limit of ${limits.maxLegacySessionHeldBytes} bytes ` +
          `per legacy session (maxLegacySessionHeldBytes)`,
        limits.onerror,
      );
      return message;
    }
    kept ??= { params, bytes };
    return { ...message, params };
  };
  const reduced = Array.isArray(body) ? body.map(reduce) : reduce(body);
  if (refusal !== undefined) return refusal;
  return { body: reduced, params: kept?.params ?? {}, bytes: kept?.bytes ?? 0 };
}

function invalidParams(problem: string, onerror: (error: Error) => void): Response {
  try {
    onerror(new Error(`Refused a legacy session: ${problem}`));
  } catch {
    // Reporting must never change a response.
  }
  return jsonRpcErrorResponse(400, -32602, `Invalid params: ${problem}`);
}
