/**
 * How the client's answers cross a fleet without being lost silently. An answer to a push made by
 * instance A may arrive at instance B, which relays it through the shared bus (Redis pub/sub).
 * Pub/sub keeps nothing for later: a message published while A's subscription is down (a Redis
 * failover, restart or pause) reaches nobody, and A's push would wait for it until its timeout.
 *
 * - The sender retries a relay that reached nobody for a few seconds ({@link relayPatiently}), long
 *   enough for a subscription to come back after a failover, then gives up with a 503.
 * - The holder, while pushes wait, checks every second that messages still reach it
 *   ({@link watchRelay}); when they may not have, it fails the waiting pushes with
 *   `ANSWER_UNREACHABLE` (questions/push.ts), so the call ends at once with a clear error instead of hanging.
 */
import type { FleetMessage, LegacySessionFleet } from './sessionFleet.js';

/** How long a relay that reached nobody is retried, in ms. */
const RELAY_RETRY_MS = 5_000;
/** The pause between two relay attempts, in ms. */
const RELAY_RETRY_PAUSE_MS = 200;
/** How often a holder with waiting pushes checks that relays reach it, in ms. */
const WATCH_INTERVAL_MS = 1_000;

/**
 * Sends `message` to `target`, retrying for up to 5 s while it reaches nobody (the target is
 * re-subscribing) or the bus fails; rejects with the last failure after that.
 */
export async function relayPatiently(fleet: LegacySessionFleet, target: string, message: FleetMessage): Promise<void> {
  const deadline = Date.now() + RELAY_RETRY_MS;
  for (;;) {
    try {
      return await fleet.send(target, message);
    } catch (error) {
      if (Date.now() + RELAY_RETRY_PAUSE_MS > deadline) throw error;
      await new Promise((wake) => setTimeout(wake, RELAY_RETRY_PAUSE_MS));
    }
  }
}

/** What {@link watchRelay} watches for and whom it tells. */
export interface RelayWatchOptions {
  readonly fleet: LegacySessionFleet;
  /** Whether any push of this instance waits for an answer. */
  waiting(): boolean;
  /** Relays may have been lost: fail every waiting push with `reason`. */
  interrupted(reason: string): void;
}

/** A running watch: `wake` after a push is sent, `stop` when the instance closes. */
export interface RelayWatch {
  wake(): void;
  stop(): void;
}

/** Checks, every second while pushes wait, that messages sent to this instance still reach it. */
export function watchRelay(options: RelayWatchOptions): RelayWatch {
  const { fleet } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (): void => {
    if (stopped || timer !== undefined) return;
    timer = setTimeout(() => void check(), WATCH_INTERVAL_MS);
    timer.unref?.();
  };

  async function check(): Promise<void> {
    if (!options.waiting()) {
      timer = undefined;
      return;
    }
    const failure = await fleet.listening().then(
      (listening) => (listening ? undefined : 'its subscription was down'),
      (error: unknown) => `the check failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    timer = undefined;
    if (failure !== undefined && !stopped) {
      options.interrupted(
        `The fleet relay to instance ${fleet.instanceId} was interrupted while this request waited for its answer ` +
          `(${failure}), so the answer may never arrive. Call the tool again.`,
      );
    }
    schedule();
  }

  return {
    wake: schedule,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
