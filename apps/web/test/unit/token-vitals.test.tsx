import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { apply, createEncounter, type EncounterState as EngineState, type Ruleset, type RulesetDisplay } from '@fray/engine';
import { Token, tokenVitals } from '../../src/components/map-tokens.js';
import { ZoneBoard } from '../../src/components/ZoneBoard.js';
import type { EncounterState } from '../../src/lib/types.js';

const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, Ruleset> };

function withBrute(id: string, stats: Record<string, unknown>, position: unknown): EngineState {
  const r = registry[id]!;
  const s = createEncounter(r, { id: 'e1', name: 'map', seed: 7 });
  const res = apply(r, s, {
    type: 'combatant.add',
    by: { role: 'gm' },
    combatant: { id: 'brute', name: 'Brute', side: 'npcs', stats, position },
  });
  if (!res.ok) throw new Error(res.error.message);
  return res.state;
}

function adjust(id: string, s: EngineState, vital: string, amount: number): EngineState {
  const res = apply(registry[id]!, s, { type: 'combatant.adjust', by: { role: 'gm' }, combatantId: 'brute', vital, amount });
  if (!res.ok) throw new Error(res.error.message);
  return res.state;
}

function token(s: EngineState, display: RulesetDisplay, numbers: boolean): string {
  const state = s as unknown as EncounterState;
  const c = state.combatants.brute!;
  const vitals = tokenVitals({ display, state, numbers: () => numbers }, c);
  return renderToStaticMarkup(
    <svg>
      <Token
        state={state}
        c={c}
        cx={50}
        cy={50}
        r={14}
        mine={false}
        selected={false}
        highlight={false}
        onClick={() => undefined}
        vitals={vitals}
      />
    </svg>,
  );
}

const left = (html: string, id: string) => Number(new RegExp(`data-testid="token-vital-brute-${id}" data-left="(\\d+)"`).exec(html)?.[1]);

describe('"Vitals at a glance … on the map\'s tokens"', () => {
  it("a token's bar follows combatant.adjust; numbers for the GM, words for the others", () => {
    const display = registry['action-points']!.display as RulesetDisplay;
    const before = withBrute('action-points', { hp: 12 }, { x: 1, y: 1 });
    const after = adjust('action-points', before, 'hp', 6);
    const gmBefore = token(before, display, true);
    const gmAfter = token(after, display, true);
    expect(left(gmBefore, 'hp')).toBe(100);
    expect(left(gmAfter, 'hp')).toBe(50);
    // the fill is half the token's width (2r = 28)
    expect(gmAfter).toMatch(/width="14" height="3.5" rx="1.5" class="token-vital-fill token-vital-low"/);
    expect(gmAfter).toContain('aria-label="Brute · side npcs · HP 6/12"');
    // "what others see follows the existing secrecy rules": a bar and a word, no numbers
    const other = token(after, display, false);
    expect(other).toContain('aria-label="Brute · side npcs · HP: about half"');
    expect(other).not.toContain('6/12');
  });

  it("zones (legends): the token chip shows the wounds bar, which grows with the GM's damage", () => {
    const display = registry.legends!.display as RulesetDisplay;
    const s0 = withBrute('legends', { DEX: 8, SPD: 8, STR: 8, toughness: 10 }, undefined);
    const s1 = adjust('legends', s0, 'wounds', 3);
    const board = (s: EngineState) =>
      renderToStaticMarkup(
        <ZoneBoard
          state={s as unknown as EncounterState}
          space={{ kind: 'zones', zones: 'rs.zones' }}
          isMine={() => false}
          selected={null}
          highlight={null}
          marks={{ reach: null, chosen: null, refusedAt: null }}
          onToken={() => undefined}
          onCell={() => undefined}
          title="Map"
          display={display}
          numbers={() => true}
        />,
      );
    expect(left(board(s0), 'wounds')).toBe(100);
    const after = board(s1);
    expect(left(after, 'wounds')).toBe(70);
    expect(after).toContain('WND 3/10');
  });
});
