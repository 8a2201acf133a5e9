import { describe, expect, it } from 'vitest';
import { apply, createEncounter, replay } from '../src/engine.js';
import { projectEvent } from '../src/project-events.js';
import { mini } from './fixture.js';
import type { Command, EncounterState } from '../src/types.js';

const gm = { role: 'gm' } as const;

describe('"GM rolls default to secret (a per-encounter option)"', () => {
  it('kept with the encounter: unset means secret; encounter.gmRolls changes it as a logged GM command that replays', () => {
    const s0 = createEncounter(mini, { id: 'enc', seed: 3 });
    expect((s0.options as { gmRollsSecret?: boolean }).gmRollsSecret).toBeUndefined();
    const cmd: Command = { type: 'encounter.gmRolls', by: gm, secret: false };
    const r = apply(mini as never, s0 as never, cmd);
    if (!r.ok) throw new Error(r.error.message);
    expect((r.state.options as { gmRollsSecret?: boolean }).gmRollsSecret).toBe(false);
    // the event is the GM's business only
    expect(r.events).toEqual([{ type: 'encounter.gmRollsChanged', secret: false, gmOnly: true }]);
    expect(projectEvent(r.events[0]!, { role: 'player', playerId: 'p1' }, r.state as never)).toBeNull();
    // the other options stay; the log rebuilds the same state (another device of the GM reads the same)
    expect(r.state.options).toMatchObject(s0.options);
    expect(JSON.stringify(replay(mini as never, s0 as never, [cmd]))).toBe(JSON.stringify(r.state));
    const back = apply(mini as never, r.state as never, { type: 'encounter.gmRolls', by: gm, secret: true });
    expect(back.ok && (back.state as EncounterState).options.gmRollsSecret).toBe(true);
  });

  it("only the GM sets it; a value that is not a boolean is refused with the schema's message", () => {
    const s0 = createEncounter(mini, { id: 'enc', seed: 3 });
    const player = apply(mini as never, s0 as never, { type: 'encounter.gmRolls', by: { role: 'player', playerId: 'p1' }, secret: false });
    expect(player.ok ? null : player.error.code).toBe('NOT_AUTHORIZED');
    const bad = apply(mini as never, s0 as never, { type: 'encounter.gmRolls', by: gm, secret: 'no' });
    expect(bad.ok ? null : bad.error.code).toBe('INVALID_COMMAND');
  });
});
