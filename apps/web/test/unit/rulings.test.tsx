import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RulesetDisplay, Ruleset } from '@fray/engine';
import { PendingRulings } from '../../src/components/Rulings.js';
import type { EncounterState } from '../../src/lib/types.js';

const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, Ruleset> };
const display = registry.legends!.display as RulesetDisplay;

const state = (attacks: unknown[]) =>
  ({
    status: 'active',
    clock: { round: 1, phase: 'action', order: ['a', 'b'], current: 'a' },
    combatants: { a: { id: 'a', name: 'Aria', items: [] }, b: { id: 'b', name: 'Brute', items: [] } },
    effects: [],
    rolls: [],
    rs: { attacks },
  }) as unknown as EncounterState;

describe('pending rulings (legends: "the attack roll and the damage the GM confirms")', () => {
  it('a pending attack shows as a card with the roll, the damage to confirm or change, and Hit / Miss', () => {
    const html = renderToStaticMarkup(
      <PendingRulings
        display={display}
        state={state([
          { id: 'atk1', by: 'a', target: 'b', attack: 'melee-attack', total: 5, margin: 3, hit: true, damage: 4, damageFormula: '1d6' },
        ])}
        send={async () => undefined}
      />,
    );
    expect(html).toContain('Pending attack');
    expect(html).toContain('Aria attacks Brute (melee attack): rolled 5, a hit for 4 damage (1d6).');
    expect(html).toMatch(/<label for="ruling-atk1-damage">Damage<\/label><input id="ruling-atk1-damage" type="number"[^>]*value="4"/);
    expect(html).toContain('>Hit (damage 4)</button>');
    expect(html).toContain('>Miss</button>');
  });

  it('a miss says so; nothing pending renders nothing', () => {
    const html = renderToStaticMarkup(
      <PendingRulings
        display={display}
        state={state([{ id: 'atk2', by: 'b', target: 'a', attack: 'ranged-attack', total: 11, margin: -2, hit: false, damage: 0 }])}
        send={async () => undefined}
      />,
    );
    expect(html).toContain('Brute attacks Aria (ranged attack): rolled 11, a miss.');
    expect(renderToStaticMarkup(<PendingRulings display={display} state={state([])} send={async () => undefined} />)).toBe('');
  });
});
