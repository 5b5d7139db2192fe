/**
 * The resolver layer's progress between modern rounds: the answers recorded so far, each pinned
 * to the digest of the question it answers, and the questions asked in the previous round. This
 * is the plaintext inside the sealed `requestState`; anything malformed means "no progress yet".
 */

/** Version of the inner progress format. */
const PROGRESS_VERSION = 1;

/** A recorded answer: the raw response and the digest of the question it answered. */
export interface RecordedAnswer {
  readonly digest: string;
  readonly response: unknown;
}

/** What a multi-round call remembers between rounds. */
export interface Progress {
  /** Answers by question key. */
  readonly answers: Record<string, RecordedAnswer>;
  /** Digests of the questions asked in the previous round, by question key. */
  readonly asked: Record<string, string>;
}

interface WireProgress {
  v: number;
  a: Record<string, [string, unknown]>;
  q: Record<string, string>;
}

/** Progress for a call that has not asked anything yet. */
function emptyProgress(): Progress {
  return { answers: {}, asked: {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes progress; an unknown version or a malformed shape yields empty progress, never an error. */
export function decodeProgress(plaintext: string): Progress {
  let wire: unknown;
  try {
    wire = JSON.parse(plaintext);
  } catch {
    return emptyProgress();
  }
  if (!isRecord(wire) || wire.v !== PROGRESS_VERSION || !isRecord(wire.a) || !isRecord(wire.q)) return emptyProgress();
  const answers: Record<string, RecordedAnswer> = {};
  for (const [key, entry] of Object.entries(wire.a)) {
    if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string') {
      answers[key] = { digest: entry[0], response: entry[1] };
    }
  }
  const asked: Record<string, string> = {};
  for (const [key, digest] of Object.entries(wire.q)) {
    if (typeof digest === 'string') asked[key] = digest;
  }
  return { answers, asked };
}

/** Encodes progress for sealing. */
export function encodeProgress(progress: Progress): string {
  const wire: WireProgress = { v: PROGRESS_VERSION, a: {}, q: progress.asked };
  for (const [key, answer] of Object.entries(progress.answers)) wire.a[key] = [answer.digest, answer.response];
  return JSON.stringify(wire);
}
