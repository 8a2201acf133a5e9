import { describe, expect, it } from 'vitest';
import { ACTIONS, catalogue } from '../../src/action-round/catalogue/index.js';
import { actionRound } from '../../src/action-round/index.js';
import { commandsOf } from '@fray/engine';

// Every action heading of the text with its [type, OA] tag, as written.
const TEXT: [string, string, string][] = [
  ['attack-close', 'standard', 'conditional'], // ATTACK, CLOSE [Standard] + "Attacking an armed opponent while unarmed normally provokes"
  ['attack-court', 'standard', 'conditional'], // ATTACK, COURT [Standard] + the Wits sentence
  ['attack-ranged', 'standard', 'OA'], // ATTACK, RANGED [Standard, OA]
  ['attack-rumor', 'standard', 'OA'], // ATTACK, RUMOR [Standard, OA]
  ['defend', 'standard', 'no'], // DEFEND [Standard]
  ['recover', 'standard', 'no'], // RECOVER [Standard]
  ['charge', 'standard', 'OA from movement'], // CHARGE [Standard, OA from movement]
  ['ready', 'standard', 'no'], // READY [Standard]
  ['trick', 'standard', 'no'], // TRICK [Standard]
  ['stunt-afflict', 'standard', 'OA'], // STUNT [Standard, OA]
  ['stunt-disarm', 'standard', 'OA'],
  ['stunt-grab', 'standard', 'OA'],
  ['stunt-pull', 'standard', 'OA'],
  ['stunt-push', 'standard', 'OA'],
  ['stunt-break', 'standard', 'OA'],
  ['assist-skill', 'standard', 'no'], // ASSIST [Standard]
  ['assist-aid', 'standard', 'no'],
  ['assist-coordinate', 'standard', 'no'],
  ['assist-combine', 'standard', 'no'],
  ['assist-distract', 'standard', 'no'],
  ['assess-analyze', 'standard', 'OA'], // ASSESSMENT [Standard, OA]
  ['assess-appraisal', 'standard', 'OA'],
  ['move-walk', 'move', 'OA from movement'], // MOVE [Move, OA from Movement]
  ['move-run', 'move', 'OA from movement'],
  ['move-squeeze', 'move', 'OA from movement'],
  ['move-crawl', 'move', 'OA from movement'],
  ['stand', 'move', 'OA'], // STAND [Move, OA]
  ['stand-acrobatic', 'free', 'no'], // "as a free action (with no Opportunity Action)"
  ['advance', 'move', 'OA from certain movement'], // ADVANCE [Move, OA from Certain Movement]
  ['withdraw', 'move', 'OA from certain movement'], // WITHDRAW
  ['escape', 'move', 'OA from certain movement'], // ESCAPE
  ['retrieve', 'move', 'OA'], // RETRIEVE OR STORE OBJECTS [Move, OA]
  ['aim', 'move', 'OA'], // AIM [Move, OA]
  ['gambit', 'move', 'OA'], // GAMBIT [Move, OA]
  ['command', 'move', 'no'], // COMMAND [Move]
  ['influence', 'move', 'OA'], // INFLUENCE [Move, OA]
  ['conceal', 'move', 'no'], // "a Deception or Stealth check as a move action"
  ['draw', 'quick', 'no'], // DRAW OR SHEATHE WEAPONS [Quick]
  ['sheathe', 'quick', 'no'],
  ['manipulate', 'quick', 'no'], // PICK UP OR MANIPULATE OBJECT [Quick]
  ['study', 'quick', 'no'], // STUDY [Quick]
  ['stance', 'quick', 'no'], // STANCE [Quick]
  ['switch-alternate', 'quick', 'no'], // SWITCH ALTERNATE EFFECT [Quick]
  ['talk', 'free', 'no'], // TALK [Free]
  ['drop-prone', 'free', 'no'], // DROP [Free]
  ['drop-item', 'free', 'no'],
  ['ammo', 'free', 'no'], // DRAW OR STORE AMMO [Free]
  ['maintain-aim', 'free', 'no'], // "it requires a free action to maintain your aim"
  ['spend-coup', 'free', 'no'], // SPEND DESTINY, FATE, OR CORRUPTION [Free]
  ['spend-edit-scene', 'free', 'no'],
  ['spend-improve-roll', 'free', 'no'],
  ['spend-inspiration', 'free', 'no'],
  ['spend-recover', 'free', 'no'],
  ['spend-stunt', 'free', 'no'],
  ['opportunity-attack', 'reaction', 'no'], // OPPORTUNITY ATTACK [Reaction]
  ['surge-additional-action', 'reaction', 'no'], // SURGE [Reaction]
  ['surge-alternate-effect', 'reaction', 'no'],
  ['surge-boost', 'reaction', 'no'],
  ['surge-burst', 'reaction', 'no'],
  ['surge-edge', 'reaction', 'no'],
  ['surge-counter', 'reaction', 'no'],
  ['surge-resistance', 'reaction', 'no'],
  ['surge-retry', 'reaction', 'no'],
  ['smash', 'reaction', 'no'], // SMASH [Reaction]
  ['slam', 'reaction', 'no'], // SLAM [Reaction]
  ['raise', 'reaction', 'no'], // RAISE [Reaction]
  ['hunch', 'reaction', 'no'], // HUNCH [Reaction]
  ['counter-stunt', 'reaction', 'no'], // "the defender may immediately make an attempt to use a Stunt on you as a Reaction"
  ['readied', 'reaction', 'no'], // "you may take the readied action as a Reaction"
  ['delay', 'none', 'no'], // DELAY [No action]
  ['act-now', 'none', 'no'],
  ['resistance-check', 'none', 'no'], // "resistance checks ... are not considered actions at all"
  ['power-personal', 'varies', 'no'], // USE POWER, PERSONAL [Varies]
  ['power-close', 'varies', 'no'], // USE POWER, CLOSE [Varies]
  ['power-ranged', 'varies', 'OA'], // USE POWER, RANGED [Varies, OA]
  ['power-court', 'varies', 'no'], // USE POWER, COURT [Varies]
  ['power-gossip', 'varies', 'OA'], // USE POWER, GOSSIP [Varies, OA]
  ['use-skill', 'varies', 'OA varies'], // USE SKILL [Varies, OA Varies]
  ['use-tool', 'varies', 'OA varies'], // USE TOOL OR DEVICE [Varies, OA Varies]
  ['load', 'varies', 'OA'], // LOAD COMPLEX WEAPONS [VARIES, OA]
];

describe('the catalogue: every action of the text as data', () => {
  it.each(TEXT)('%s is [%s, %s]', (id, type, oa) => {
    const a = ACTIONS.find((x) => x.id === id);
    expect(a, id).toBeDefined();
    expect(a!.type).toBe(type);
    expect(a!.oa).toBe(oa);
    const entry = catalogue.find((c) => c.id === id)!;
    expect(entry.kind).toBe(type);
    expect(entry.provokes).toBe(oa);
    expect(entry.rule.length).toBeGreaterThan(10);
  });

  it('has nothing the text does not name, and every entry has a command the ruleset handles', () => {
    expect(ACTIONS.map((a) => a.id).sort()).toEqual(TEXT.map((t) => t[0]).sort());
    const cmds = commandsOf(actionRound as never);
    for (const a of ACTIONS) expect(cmds[a.command], `${a.id} -> ${a.command}`).toBeDefined();
  });

  it('the ruleset exposes the catalogue and documents every option', () => {
    expect(actionRound.catalogue).toBe(catalogue);
    const defaults = actionRound.optionsSchema.parse({}) as Record<string, unknown>;
    for (const k of Object.keys(defaults)) expect(actionRound.optionDocs[k], k).toBeTruthy();
  });
});
