/**
 * The commands and steps of committed dice (commit.ts, docs/dice.md): `dice.contribute`,
 * `dice.reveal`, `dice.autoReveal`; the seal (at combat start or the first roll) and the reveal
 * when combat ends; and their events in `evolve`.
 */
import { z } from 'zod';
import { commandSchema } from './schemas.js';
import { commandKit } from './kit.js';
import { RuleViolation } from './errors.js';
import { deriveRngState, HEX64, participantOf, type DiceContribution, type DiceState } from './commit.js';
import type { CommandSpec, Ctx, EncounterState, EngineEvent } from './types.js';
import type { Writer } from './writer.js';

/** At most this many contributions (GM and players of one table). */
const MAX_CONTRIBUTIONS = 64;

function committed(ctx: Ctx, rule: string): DiceState {
  const d = ctx.state.dice;
  if (!d)
    throw new RuleViolation(
      'DICE_NOT_COMMITTED',
      rule,
      'This encounter was created before committed dice: its dice have no commitment to contribute to or reveal.',
    );
  return d;
}

const command = commandKit<unknown, Record<string, unknown>>();

export const diceCommitCommands: Record<string, CommandSpec> = {
  'dice.contribute': command({
    actor: 'any',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('dice.contribute', { value: z.string().regex(HEX64, 'A contribution is 32 bytes as 64 lowercase hex digits.') }),
    handle(ctx, cmd) {
      const d = committed(ctx, 'engine.dice.contribute');
      const by = participantOf(cmd.by);
      if (by === null) ctx.fail('NOT_AUTHORIZED', 'engine.dice.contribute', 'Only the GM and the players contribute to the dice.');
      if (d.sealed)
        ctx.fail(
          'DICE_SEALED',
          'engine.dice.contribute',
          'The dice are sealed (combat has started or a die was rolled): contributions are closed.',
        );
      if (d.contributions.some((c) => c.by === by))
        ctx.fail('DICE_ALREADY_CONTRIBUTED', 'engine.dice.contribute', 'You have already contributed to these dice.');
      if (d.contributions.length >= MAX_CONTRIBUTIONS)
        ctx.fail('INVALID_COMMAND', 'engine.dice.contribute', `At most ${MAX_CONTRIBUTIONS} contributions.`);
      ctx.emit({ type: 'dice.contributed', by, value: cmd.value });
    },
  }),
  'dice.reveal': command({
    actor: 'gm',
    inSetup: true,
    afterEnd: true,
    duringReaction: true,
    schema: commandSchema('dice.reveal', {}),
    handle(ctx) {
      const d = committed(ctx, 'engine.dice.reveal');
      if (d.revealed) ctx.fail('DICE_ALREADY_REVEALED', 'engine.dice.reveal', 'The dice of this encounter are already revealed.');
      // a revealed seed makes every later die foreseeable: reveal only once no die can be rolled
      if (ctx.state.status !== 'ended')
        ctx.fail(
          'DICE_REVEAL_TOO_EARLY',
          'engine.dice.reveal',
          'Reveal the dice once combat has ended: a revealed seed would let anyone foresee the dice still to come.',
        );
      emitReveal(ctx, d);
    },
  }),
  'dice.autoReveal': command({
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('dice.autoReveal', { on: z.boolean() }),
    handle(ctx, cmd) {
      const d = committed(ctx, 'engine.dice.autoReveal');
      if (d.revealed) ctx.fail('DICE_ALREADY_REVEALED', 'engine.dice.autoReveal', 'The dice of this encounter are already revealed.');
      ctx.emit({ type: 'dice.autoRevealChanged', on: cmd.on });
    },
  }),
};

function emitReveal<RS>(ctx: Ctx<RS>, d: DiceState): void {
  const secret = d.secret;
  if (!secret) throw new Error('The committed dice have lost their secret.');
  ctx.emit({ type: 'dice.revealed', seed: secret.seed, salt: secret.salt, commitment: d.commitment });
}

/**
 * Before a roll of committed dice: refuse once revealed, seal on the first roll. Returns the
 * generator's position (its outputs drawn so far) for the roll's event.
 */
export function beforeCommittedRoll(ctx: Ctx): number {
  const d = ctx.state.dice!;
  if (d.revealed) ctx.fail('DICE_REVEALED', 'engine.dice', 'The dice of this encounter are revealed: no die may be rolled any more.');
  if (!d.sealed) ctx.emit({ type: 'dice.sealed', contributors: d.contributions.map((c) => c.by) });
  return ctx.state.dice!.draws;
}

/**
 * After a command: seal when combat started without a roll; reveal when combat ended (if on). A
 * fork of a fight under way starts unsealed (fresh dice): it seals at its first roll, so the
 * participants who join it contribute first.
 */
export function afterDiceCommand<RS>(ctx: Ctx<RS>, before: EncounterState<RS>): void {
  const d = ctx.state.dice;
  if (!d) return;
  if (!d.sealed && before.status === 'setup' && ctx.state.status !== 'setup')
    ctx.emit({ type: 'dice.sealed', contributors: d.contributions.map((c) => c.by) });
  const now = ctx.state.dice!;
  if (ctx.state.status === 'ended' && before.status !== 'ended' && now.autoReveal && !now.revealed) emitReveal(ctx, now);
}

/** `evolve` for the events of committed dice; false for another event. */
export function evolveDice<RS>(s: EncounterState<RS>, e: EngineEvent, w: Writer): boolean {
  switch (e.type) {
    case 'dice.contributed': {
      const d = w.own<DiceState>(s, 'dice');
      w.own<DiceContribution[]>(d, 'contributions').push(w.adopt({ by: String(e.by), value: String(e.value) }));
      return true;
    }
    case 'dice.sealed': {
      const d = w.own<DiceState>(s, 'dice');
      d.sealed = true;
      s.rng = w.adopt(deriveRngState(d.secret!.seed, d.contributions));
      return true;
    }
    case 'dice.revealed':
      w.own<DiceState>(s, 'dice').revealed = w.adopt({ seed: String(e.seed), salt: String(e.salt) });
      return true;
    case 'dice.autoRevealChanged':
      w.own<DiceState>(s, 'dice').autoReveal = e.on === true;
      return true;
    default:
      return false;
  }
}

/** `dice.rolled` of committed dice: the generator's position moves on by the outputs drawn. */
export function countDraws<RS>(s: EncounterState<RS>, e: EngineEvent, w: Writer): void {
  if (s.dice && typeof e.draw === 'number' && typeof e.drawn === 'number') w.own<DiceState>(s, 'dice').draws = e.draw + e.drawn;
}
