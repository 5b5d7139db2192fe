/**
 * The client half shared by every test connection: an SDK `Client` set up for one era, with the
 * scripted answers registered and the transport observed for counting.
 */

import type { Client, ClientCapabilities, Implementation, Transport } from '@modelcontextprotocol/client';

import { McpResolveError } from '../errors.js';
import { sdk } from './clientSdk.js';
import type { ScriptedAnswers } from './scriptedAnswers.js';
import { assertCapabilitiesCover, capabilitiesFor, installAnswers } from './scriptedAnswers.js';
import type { Counters } from './counters.js';
import { ConnectionCounters } from './counters.js';
import type { TransportObserver } from './observedTransport.js';
import type { Era } from '../context.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol.js';

/** The protocol revision a `modern` test client pins. */
export const MODERN_PROTOCOL_VERSION = MODERN_REVISION;

/** The protocol revision a `legacy` test client offers in `initialize`. */
export const LEGACY_PROTOCOL_VERSION = LEGACY_REVISION;

/** How a test client connects and answers. */
export interface ConnectOptions extends ScriptedAnswers {
  /** Which protocol era to speak. */
  era: Era;
  /**
   * Capabilities to declare; by default derived from the answers given (`elicit` → form
   * elicitation, `sample` → sampling, `roots` → roots).
   */
  capabilities?: ClientCapabilities;
  /** Modern-era cap on `input_required` rounds per call (the SDK's default is 10). */
  maxRounds?: number;
  /** The client's name and version. @default { name: 'mcp-resolve-testing', version: '0.0.0' } */
  clientInfo?: Implementation;
  /** Milliseconds the connect handshake may take. @default the SDK's request timeout */
  timeoutMs?: number;
}

/** A connected test client; counters start at zero once the handshake is done. */
export interface TestConnection {
  /** The SDK client, ready for `callTool`, `listTools`, …. */
  readonly client: Client;
  /** What crossed the client's transport since connect (or the last `reset()`). */
  readonly counters: Counters;
  /** Closes the client and whatever the connection started (idempotent). */
  close(): Promise<void>;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-resolve-testing', version: '0.0.0' };

/**
 * Connects a new client for `options.era` over the transport `observe` builds around the
 * connection's observer; `teardown` runs after the client closes (and when connecting fails).
 */
export async function connectObserved(
  api: string,
  options: ConnectOptions,
  observe: (observer: TransportObserver) => Transport,
  teardown: () => Promise<void> = async () => {},
): Promise<TestConnection> {
  let client: Client;
  try {
    client = createClient(api, options);
  } catch (error) {
    await teardown().catch(() => {});
    throw error;
  }
  const counters = new ConnectionCounters();
  installAnswers(client, options, counters);
  const observed = observe({
    outgoingRequest: (method) => counters.countLeg(method),
    incomingRequest: () => counters.countPush(),
  });
  try {
    await client.connect(observed, options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : undefined);
  } catch (error) {
    await client.close().catch(() => {});
    await teardown().catch(() => {});
    throw error;
  }
  counters.reset();
  let closing: Promise<void> | undefined;
  return {
    client,
    counters,
    close() {
      closing ??= (async () => {
        try {
          await client.close();
        } finally {
          await teardown();
        }
      })();
      return closing;
    },
  };
}

function createClient(api: string, options: ConnectOptions): Client {
  const { era, maxRounds } = options;
  if (era !== 'modern' && era !== 'legacy') {
    throw new McpResolveError(
      'invalid_options',
      `${api}: era must be 'modern' or 'legacy' (got ${JSON.stringify(era)}).`,
      { data: { api, option: 'era' } },
    );
  }
  if (maxRounds !== undefined && (!Number.isInteger(maxRounds) || maxRounds < 1)) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: maxRounds must be a positive integer (got ${String(maxRounds)}). Omit it for the SDK's default of 10.`,
      { data: { api, option: 'maxRounds' } },
    );
  }
  const capabilities = options.capabilities ?? capabilitiesFor(options);
  assertCapabilitiesCover(api, capabilities, options);
  return new sdk.Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
    capabilities,
    ...(era === 'modern'
      ? { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } }
      : { supportedProtocolVersions: [LEGACY_PROTOCOL_VERSION] }),
    ...(maxRounds !== undefined && { inputRequired: { maxRounds } }),
  });
}
