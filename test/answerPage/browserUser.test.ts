/**
 * Who answers a page bound to a principal: the browser's user, given as the `AuthInfo` MCP
 * authentication gives that person, is the same person when the principals match, or when both
 * name the same issuer and subject (the site's login and the MCP client carry different client ids).
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { answersFor } from '../../src/answerPage/browserUser.js';
import { principalFrom } from '../../src/state/binding.js';

const auth = (clientId: string, extra?: Record<string, unknown>): AuthInfo => ({
  token: 't',
  clientId,
  scopes: [],
  ...(extra !== undefined && { extra }),
});

const ALICE_VIA_CHAT = principalFrom(auth('chat-app', { iss: 'https://id.example', sub: 'alice' }))!;

describe('answersFor', () => {
  it('takes the AuthInfo of the asked person, whichever client id the site gives it', () => {
    expect(answersFor(ALICE_VIA_CHAT, auth('chat-app', { iss: 'https://id.example', sub: 'alice' }))).toBe(true);
    expect(answersFor(ALICE_VIA_CHAT, auth('desk-site', { iss: 'https://id.example', sub: 'alice' }))).toBe(true);
  });

  it('refuses another subject, another issuer, and nobody', () => {
    expect(answersFor(ALICE_VIA_CHAT, auth('chat-app', { iss: 'https://id.example', sub: 'bob' }))).toBe(false);
    expect(answersFor(ALICE_VIA_CHAT, auth('chat-app', { iss: 'https://other.example', sub: 'alice' }))).toBe(false);
    expect(answersFor(ALICE_VIA_CHAT, auth('chat-app'))).toBe(false);
    expect(answersFor(ALICE_VIA_CHAT, undefined)).toBe(false);
  });

  it('matches a principal without a subject (a client acting for itself) exactly', () => {
    const service = principalFrom(auth('batch-job'))!;
    expect(answersFor(service, auth('batch-job'))).toBe(true);
    expect(answersFor(service, auth('other-job'))).toBe(false);
  });

  it('still takes the principal string itself (a custom principal option)', () => {
    expect(answersFor('alice', 'alice')).toBe(true);
    expect(answersFor('alice', 'bob')).toBe(false);
    expect(answersFor(ALICE_VIA_CHAT, ALICE_VIA_CHAT)).toBe(true);
    expect(answersFor('["a",null,"alice"]', '["b",null,"alice"]')).toBe(true);
  });
});
