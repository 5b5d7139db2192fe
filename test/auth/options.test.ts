/**
 * The `oauth` option is checked when the host is built: each field at fault is named with the fix,
 * and `serveHttp` refuses `oauth` together with `authenticate`.
 */
import { describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { OAuthOptions } from '../../src/index.js';
import { createDualEraHandler } from '../../src/index.js';
import { serveHttp } from '../../src/node/index.js';

const ISSUER = 'https://auth.example.com';
const build = (oauth: OAuthOptions) => () => createDualEraHandler(createRefundDesk(), { oauth });

describe('oauth option checks', () => {
  it.each([
    [{ issuer: 'http://auth.example.com' }, 'oauth.issuer must be an https URL without fragment'],
    [{ issuer: 'not a url' }, 'oauth.issuer must be an https URL'],
    [{ issuer: `${ISSUER}#x` }, 'oauth.issuer must be an https URL without fragment'],
    [{ issuer: ISSUER, resource: 'http://mcp.example.com/mcp' }, 'oauth.resource must be an https URL'],
    [{ issuer: ISSUER, scopes: ['two words'] }, 'oauth.scopes must be an array of OAuth scope tokens'],
    [
      { issuer: ISSUER, introspection: { clientId: 'rs', clientSecret: '' } },
      'oauth.introspection needs a non-empty clientId and clientSecret',
    ],
    [
      { issuer: ISSUER, fetchTimeoutMs: 0 },
      'oauth.fetchTimeoutMs must be a positive integer number of milliseconds (got 0). The default is 5000.',
    ],
    [{ issuer: ISSUER, maxTokenBytes: 1.5 }, 'oauth.maxTokenBytes must be a positive integer number of bytes'],
  ] as [OAuthOptions, string][])('refuses %j', (oauth, message) => {
    expect(build(oauth)).toThrow(message);
  });

  it('accepts an http issuer and resource on a loopback host', () => {
    expect(build({ issuer: 'http://127.0.0.1:4000', resource: 'http://localhost:3000/mcp' })).not.toThrow();
  });

  it('refuses oauth together with authenticate on serveHttp', async () => {
    await expect(
      serveHttp(createRefundDesk(), {
        oauth: { issuer: ISSUER },
        authenticate: () => ({ token: 't', clientId: 'c', scopes: [] }),
      }),
    ).rejects.toThrow(
      'serveHttp(): authenticate cannot be combined with oauth. Pass one of them: oauth checks bearer tokens itself.',
    );
  });
});
