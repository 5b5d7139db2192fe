/** The exact messages of a question whose attempts are spent (`AttemptsSpent`), as patterns: the retry instant varies. */

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The retry clause: an ISO instant and the seconds until it. */
const RETRY =
  'no answer to it is taken until \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\(retry in \\d+ s\\)\\.';

/** The message of the answer that spent the last of `limit` attempts: its refusal `refused`, then why no more are taken. */
export function lastAttempt(refused: string, limit = 3, window = '15 minutes'): RegExp {
  const spent = `${limit} answer${limit === 1 ? '' : 's'} refused within ${window}`;
  return new RegExp(`^${escaped(refused)} That was the last attempt \\(${escaped(spent)}\\): ${RETRY}$`);
}

/** The message of an answer to resolver `label`'s question after its `limit` attempts were spent: not read. */
export function closedQuestion(label: string, limit = 3, window = '15 minutes'): RegExp {
  const spent = `${limit} answer${limit === 1 ? '' : 's'} refused within ${window}`;
  return new RegExp(
    `^${escaped(`Resolver '${label}': this question takes no more answers for now (${spent}): `)}${RETRY}$`,
  );
}
