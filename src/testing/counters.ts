/**
 * Counters of what crossed the client's side of one test connection.
 */

/** What a test connection has seen since it connected (or since the last `reset()`). */
export interface Counters {
  /** Client-to-server requests per method (`'tools/call'`, `'tools/list'`, …): each modern retry is one more leg. */
  readonly legs: Readonly<Record<string, number>>;
  /**
   * Server-asked inputs the scripted answers handled, per method (`'elicitation/create'`,
   * `'sampling/createMessage'`, `'roots/list'`): legacy pushes and modern embedded requests alike.
   */
  readonly questions: Readonly<Record<string, number>>;
  /** Server-to-client JSON-RPC requests received on the wire (legacy pushes, pings included). */
  readonly pushes: number;
  /** Sets every count back to zero. */
  reset(): void;
}

/** The writable side of {@link Counters}, kept inside the testing entry. */
export class ConnectionCounters implements Counters {
  readonly legs: Record<string, number> = {};
  readonly questions: Record<string, number> = {};
  pushes = 0;

  /** Records one client-to-server request. */
  countLeg(method: string): void {
    this.legs[method] = (this.legs[method] ?? 0) + 1;
  }

  /** Records one answered server question. */
  countQuestion(method: string): void {
    this.questions[method] = (this.questions[method] ?? 0) + 1;
  }

  /** Records one server-to-client request. */
  countPush(): void {
    this.pushes++;
  }

  reset(): void {
    for (const key of Object.keys(this.legs)) delete this.legs[key];
    for (const key of Object.keys(this.questions)) delete this.questions[key];
    this.pushes = 0;
  }
}
