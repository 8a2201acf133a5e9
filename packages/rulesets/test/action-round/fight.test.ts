import { describe, expect, it } from 'vitest';
import { createEncounter, replay } from '@fray/engine';
import { actionRound } from '../../src/action-round/index.js';
import { data, events, gm, pos, run, setup } from './helpers.js';
import type { State } from '../../src/action-round/state/index.js';

/**
 * A scripted fight of three rounds and the start of a fourth: a delay, a substitution, aim stacking,
 * a ready and its trigger, a stunt, a surge and its fatigue, a charge that provokes, and a social
 * round of influence, court and rumor attacks. Dice are forced where the story depends on them.
 */
describe('a scripted fight', () => {
  it('plays three rounds by the rules and replays byte-identically', () => {
    const opts = { encounterType: 'challenge', conversationRange: 6 };
    const tough = { toughness: 30, will: 30 };
    const { s: s0, log } = setup(
      [
        {
          id: 'knight',
          side: 'pc',
          at: [0, 0],
          stats: { ...tough, skills: {} },
          items: [{ id: 'sword', name: 'Sword', location: 'right-hand', tags: ['weapon'] }],
        },
        { id: 'archer', side: 'pc', at: [2, 4], stats: { ...tough, range: 20, destiny: 1, skills: { persuasion: 5 } } },
        { id: 'brute', side: 'npc', at: [5, 0], stats: { ...tough, naturalWeapons: true } },
        { id: 'duke', side: 'npc', at: [14, 6], stats: { ...tough, skills: { wits: 3, insight: 1 } } },
      ],
      opts,
    );
    let s = s0;
    const initial = createEncounter(actionRound, { id: 'enc', seed: 1, options: opts });
    const go = (cmd: Record<string, unknown>) => {
      const full = { by: gm, ...cmd };
      const r = run(s, full);
      log.push(full);
      s = r.state;
      return r;
    };
    const force = (...faces: number[]) => faces.forEach((f) => go({ type: 'dice.force', faces: [f] }));
    const end = (id: string) => go({ type: 'turn.end', combatantId: id });

    // ---------------- round 1
    expect(s.clock).toMatchObject({ round: 1, order: ['knight', 'archer', 'brute', 'duke'], current: 'knight' });
    go({ type: 'delay', combatantId: 'knight' });
    expect(s.clock.current).toBe('archer');
    go({ type: 'aim', combatantId: 'archer', targetId: 'brute' });
    // substitution: "substitute an additional move action for your standard action"
    const aim2 = go({ type: 'aim', combatantId: 'archer', targetId: 'brute' });
    expect(events(aim2, 'action-round.spent')[0]).toMatchObject({ actionType: 'move', slot: 'standard' });
    expect(data(s, 'archer').aim).toMatchObject({ targetId: 'brute', bonus: 2 });
    end('archer');
    expect(s.clock.current).toBe('brute');
    // the delayed knight takes its turn before the brute acts
    go({ type: 'act-now', combatantId: 'knight' });
    expect(s.clock.order).toEqual(['archer', 'knight', 'brute', 'duke']);
    go({
      type: 'ready',
      combatantId: 'knight',
      action: 'attack',
      params: { kind: 'close' },
      trigger: { event: 'enters-reach', by: 'brute', description: 'when the brute comes within reach' },
    });
    end('knight');
    expect(s.clock.current).toBe('brute');
    go({
      type: 'move',
      combatantId: 'brute',
      mode: 'walk',
      path: [
        { x: 4, y: 0 },
        { x: 3, y: 0 },
        { x: 2, y: 0 },
        { x: 1, y: 0 },
      ],
    });
    expect(s.reaction).toMatchObject({ kind: 'action-round.readied', eligible: ['knight'] });
    force(15, 1);
    const readied = go({ type: 'readied', combatantId: 'knight', targetId: 'brute' });
    expect(events(readied, 'action-round.attack-resolved')[0]).toMatchObject({ combatantId: 'knight', targetId: 'brute', hit: true });
    expect(data(s, 'knight').readied).toBeNull();
    force(5);
    go({ type: 'attack', combatantId: 'brute', kind: 'close', targetId: 'knight' });
    end('brute');
    go({ type: 'talk', combatantId: 'duke', text: 'Stop this at once!' });
    end('duke');

    // ---------------- round 2
    expect(s.clock).toMatchObject({ round: 2, current: 'archer' });
    go({ type: 'maintain-aim', combatantId: 'archer' });
    force(10, 1);
    const shot = go({ type: 'attack', combatantId: 'archer', kind: 'ranged', targetId: 'brute' });
    expect(events(shot, 'dice.rolled')[0]!.formula).toBe('1d20+2');
    // a surge for an additional standard action
    go({ type: 'surge', combatantId: 'archer', benefit: 'additional-action' });
    force(3);
    const shot2 = go({ type: 'attack', combatantId: 'archer', kind: 'ranged', targetId: 'brute' });
    expect(events(shot2, 'dice.rolled')[0]!.formula).toBe('1d20');
    end('archer');
    // a stunt: the brute threatens the knight, so the [OA] stunt opens a window first
    go({ type: 'stunt', combatantId: 'knight', targetId: 'brute', benefit: 'afflict', condition: 'dazed' });
    expect(s.reaction?.eligible).toEqual(['brute']);
    force(15, 1, 15);
    const stunt = go({ type: 'reaction.pass', combatantId: 'brute' });
    expect(events(stunt, 'action-round.stunt-succeeded')[0]).toMatchObject({ benefit: 'afflict' });
    expect(s.effects.some((e) => e.targetId === 'brute' && e.condition === 'dazed')).toBe(true);
    end('knight');
    // a charge out of the knight's threatened square provokes
    go({
      type: 'charge',
      combatantId: 'brute',
      targetId: 'archer',
      path: [
        { x: 1, y: 1 },
        { x: 1, y: 2 },
        { x: 2, y: 3 },
      ],
    });
    expect(s.reaction).toMatchObject({ kind: 'action-round.opportunity-attack', eligible: ['knight'] });
    force(2, 10);
    const oa = go({ type: 'opportunity-attack', combatantId: 'knight' });
    expect(events(oa, 'action-round.attack-resolved').map((e) => [e.combatantId, e.action])).toEqual([
      ['knight', 'opportunity-attack'],
      ['brute', 'charge'],
    ]);
    expect(events(oa, 'dice.rolled')[1]!.formula).toBe('1d20-1');
    expect(pos(s, 'brute')).toEqual({ x: 2, y: 3 });
    end('brute');
    go({ type: 'move', combatantId: 'duke', mode: 'walk', path: [13, 12, 11, 10, 9, 8].map((x) => ({ x, y: 6 })) });
    end('duke');

    // ---------------- round 3: the surge's fatigue, then a social round
    expect(s.clock).toMatchObject({ round: 3, current: 'archer' });
    expect(data(s, 'archer').fatigue).toBe(1);
    go({ type: 'influence', combatantId: 'archer', targetId: 'duke', skill: 'persuasion', goal: 'improve' });
    // in a challenge the duke's Wits threaten court range: he may answer with a court attack
    // (the brute, now next to the archer, threatens her too and lets it pass)
    expect(s.reaction?.eligible).toEqual(['brute', 'duke']);
    go({ type: 'reaction.pass', combatantId: 'brute' });
    force(12, 3, 4, 18);
    const court = go({ type: 'opportunity-attack', combatantId: 'duke' });
    expect(events(court, 'action-round.attack-resolved')[0]).toMatchObject({ combatantId: 'duke', kind: 'court' });
    expect(events(court, 'action-round.attitude-changed')[0]).toMatchObject({ targetId: 'duke', before: 0, after: 2 });
    // the duke already reacted this turn: the archer's court attack does not provoke again
    force(8);
    expect(go({ type: 'attack', combatantId: 'archer', kind: 'court', targetId: 'duke' }).state.reaction).toBeNull();
    end('archer');
    force(9);
    const rumor = go({ type: 'attack', combatantId: 'knight', kind: 'rumor', targetId: 'duke' });
    expect(events(rumor, 'action-round.attack-resolved')[0]).toMatchObject({ kind: 'rumor' });
    end('knight');
    go({ type: 'talk', combatantId: 'brute', text: 'Huh?' });
    end('brute');
    force(11);
    go({ type: 'attack', combatantId: 'duke', kind: 'court', targetId: 'archer' });
    end('duke');
    expect(s.clock).toMatchObject({ round: 4, current: 'archer' });
    expect(s.rs.attitudes).toEqual({ duke: { archer: 2 } });

    // the command log replays to the byte-identical state
    const replayed = replay(actionRound as never, initial as never, log) as unknown as State;
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(s));
  });
});
