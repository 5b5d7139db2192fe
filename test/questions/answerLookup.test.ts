/** Answers are looked up as own properties only: a question key that names an `Object.prototype` member is not "answered" by the prototype. */
import { elicit, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { accept, asked, completed, connectManual, messageOf, newServer, textOf } from '../resolvers/helpers.js';

const Pick = z.object({ pick: z.string() });

describe('answer lookup sees own properties only', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    "a resolver keyed '%s' is asked, not answered by Object.prototype",
    async (name) => {
      const ask = resolver({ name }, () => elicit(`Pick for ${name}?`, Pick));
      const server = newServer().tool('t', { resolve: { value: ask } }, ({ value }) => value.pick);
      const manual = await connectManual(server);
      // A first round that carries an answer to some other key: the prototype must not answer `name`.
      const r1 = asked(await manual.round('t', {}, { inputResponses: { unrelated: accept({ pick: 'x' }) } }));
      expect(Object.keys(r1.inputRequests)).toEqual([name]);
      expect(messageOf(r1.inputRequests[name])).toBe(`Pick for ${name}?`);
      const r2 = await manual.round(
        't',
        {},
        { inputResponses: { [name]: accept({ pick: 'y' }) }, requestState: r1.requestState },
      );
      expect(textOf(completed(r2))).toBe('y');
    },
  );
});
