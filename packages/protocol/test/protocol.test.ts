import { describe, expect, it } from 'vitest';
import { commandRequest, createInviteBody, httpStatusFor, patchOpSchema } from '../src/index.js';

describe('protocol schemas', () => {
  it('a command request leaves `by` to the server', () => {
    const ok = commandRequest.safeParse({ encounterId: 'e1', commandId: 'c-1', command: { type: 'attack', combatantId: 'a' } });
    expect(ok.success).toBe(true);
    const forged = commandRequest.safeParse({ encounterId: 'e1', commandId: 'c-1', command: { type: 'attack', by: { role: 'gm' } } });
    expect(forged.success).toBe(false);
  });

  it('refuses unknown fields, wrong types and bad command ids', () => {
    expect(commandRequest.safeParse({ encounterId: 'e1', commandId: 'c 1', command: { type: 'x' } }).success).toBe(false);
    expect(commandRequest.safeParse({ encounterId: 1, commandId: 'c1', command: { type: 'x' } }).success).toBe(false);
    expect(commandRequest.safeParse({ encounterId: 'e1', commandId: 'c1', command: { type: 'x' }, extra: 1 }).success).toBe(false);
  });

  it('invites are for players (bound to combatants) or spectators', () => {
    expect(createInviteBody.safeParse({ role: 'player', combatantIds: ['a'] }).success).toBe(true);
    expect(createInviteBody.safeParse({ role: 'player', combatantIds: [] }).success).toBe(false);
    expect(createInviteBody.safeParse({ role: 'spectator' }).success).toBe(true);
    expect(createInviteBody.safeParse({ role: 'gm' }).success).toBe(false);
  });

  it('patch operations are RFC 6902 operations', () => {
    expect(patchOpSchema.safeParse({ op: 'replace', path: '/version', value: 2 }).success).toBe(true);
    expect(patchOpSchema.safeParse({ op: 'merge', path: '/' }).success).toBe(false);
  });

  it('maps error codes to HTTP statuses', () => {
    expect(httpStatusFor('UNAUTHORIZED')).toBe(401);
    expect(httpStatusFor('FORBIDDEN')).toBe(403);
    expect(httpStatusFor('NOT_FOUND')).toBe(404);
    expect(httpStatusFor('STALE_VERSION')).toBe(409);
    expect(httpStatusFor('PAYLOAD_TOO_LARGE')).toBe(413);
    expect(httpStatusFor('NOT_YOUR_TURN')).toBe(422);
    expect(httpStatusFor('RATE_LIMITED')).toBe(429);
  });
});
