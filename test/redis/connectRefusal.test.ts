/** Which connect errors TLS or the ACL caused, and the fix each names (the integration tests meet them on real servers). */
import { describe, expect, it } from 'vitest';

import { accessFix, redisFailure } from '../../src/redis/connectRefusal.js';

describe('accessFix', () => {
  it('leaves a refused or reset connection to the reachability message', () => {
    expect(
      accessFix(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), {}, false),
    ).toBeUndefined();
  });

  it("names the sentinels' login when a sentinel refused it, and the data nodes' otherwise", () => {
    const sentinel = new Error('Redis reported: obseve client error: Error: WRONGPASS invalid username-password pair');
    expect(accessFix(sentinel, {}, true)).toBe(
      "a sentinel refused the user and password (WRONGPASS): set username and password in the Sentinel target to the sentinels' ACL user",
    );
    expect(accessFix(new Error('WRONGPASS invalid username-password pair'), {}, true)).toBe(
      'Redis refused the user and password (WRONGPASS): set username and password (or put them in the URL) to an ACL user Redis enables',
    );
  });

  it('names tls when Redis does not speak TLS on a port tls is set for', () => {
    const error = Object.assign(new Error('wrong version number'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect(accessFix(error, { tls: true }, false)).toContain('Redis does not speak TLS on that port');
    expect(accessFix(error, {}, false)).toBeUndefined();
  });
});

describe('redisFailure', () => {
  it('names the grant for an ACL refusal, and says Redis did not answer otherwise', () => {
    expect(redisFailure("NOPERM this user has no permissions to run the 'eval' command")).toMatch(
      /^Redis's ACL refused the command \(NOPERM [^)]*\); grant its ACL user the rule in the Managed Redis section of the scaling guide/,
    );
    expect(redisFailure('no answer within 500 ms')).toBe('Redis did not answer (no answer within 500 ms)');
  });
});
