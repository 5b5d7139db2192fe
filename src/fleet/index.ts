/**
 * `mcp-resolve/fleet`: what the instances of a fleet share for 2025-11-25 (legacy) sessions, for
 * whoever writes a backend or runs several handlers in one process. A {@link LegacySessionFleet}
 * is the shared session records plus the bus between instances; `mcp-resolve/redis` implements it
 * over Redis, {@link createMemorySessionHub} in memory. Pass one as `createDualEraHandler`'s
 * `sessionFleet` option (docs/guides/scaling.md).
 *
 * @packageDocumentation
 */
export { INSTANCE_HEADER } from '../hosting/dualEraHandler.js';
export { createMemorySessionHub } from '../hosting/sessionFleet.js';
export type {
  FleetBus,
  FleetMessage,
  FleetNotification,
  LegacySessionFleet,
  MemorySessionHub,
  PendingPush,
  SessionAdmission,
  SessionRefusal,
  SharedPushStore,
  SharedSessionRecord,
  SharedSessionStore,
} from '../hosting/sessionFleet.js';
