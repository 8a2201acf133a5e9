/** The context a command handler gets (`Ctx`), and the close of a reaction window every response has answered. */
import { current, isDraft, original } from 'mutative';
import type { Writer } from './writer.js';
import { diceCount, parseFormula, rollFormula, totalFor } from './dice.js';
import { RuleViolation, type ErrorCode } from './errors.js';
import { Rng } from './rng.js';
import type { Command, Ctx, EncounterState, EngineEvent, ReactionWindow, RollOptions, RollResult, Ruleset } from './types.js';
import { evolve, CORE_EVENTS } from './evolve.js';
import { beforeCommittedRoll } from './commit-commands.js';

export function closeWindowIfDone<RS>(ruleset: Ruleset<RS>, ctx: Ctx<RS>): void {
  // Resuming may open a new window; loop until one is left open or none is.
  for (let guard = 0; guard < 32; guard++) {
    const w = ctx.state.reaction;
    if (!w) return;
    if (w.eligible.some((id) => w.responses[id] === 'pending')) return;
    const closed: ReactionWindow = structuredCloneWindow(w, ruleset.cow === true);
    ctx.emit({ type: 'reaction.closed', windowId: w.id, outcome: 'answered' });
    ruleset.onReactionClosed?.(ctx, closed);
  }
}

/**
 * A plain copy of the window (it is a draft while the command runs). An open window is changed in
 * place only by the engine, and only in `responses` and `eligible` (see `evolve`); the rest is as
 * it was when the window opened, so it is taken from the pre-command value instead of copied
 * through the draft.
 */
function structuredCloneWindow(w: ReactionWindow, cow: boolean): ReactionWindow {
  // the copy-on-write working window is the command's own: hand out a copy, as the draft path does
  if (cow) return { ...w, eligible: [...w.eligible], responses: { ...w.responses } };
  if (!isDraft(w)) return w;
  const before = original(w) as ReactionWindow;
  return { ...before, eligible: [...w.eligible], responses: { ...w.responses } };
}

export function makeCtx<RS>(
  ruleset: Ruleset<RS>,
  draft: EncounterState<RS>,
  command: Command,
  events: EngineEvent[],
  base: EncounterState<RS>,
  writer: Writer,
): Ctx<RS> {
  return new CommandCtx(ruleset, draft, command, events, base, writer);
}

/**
 * The context handlers get. A class, so that a command allocates one object instead of one
 * closure per method (handlers call its methods on it; none takes a method off it).
 */
class CommandCtx<RS> implements Ctx<RS> {
  readonly state: EncounterState<RS>;
  readonly options: Record<string, unknown>;
  private idCounter = 0;
  private readonly version: number;
  // Reads that do not need the draft go to the base state: every draft read costs a proxy.
  private rngState: EncounterState<RS>['rng'];
  /** Whether the queue of GM-forced rolls may differ from the base state's (then read the draft). */
  private forcedTouched = false;

  constructor(
    private readonly ruleset: Ruleset<RS>,
    private readonly draft: EncounterState<RS>,
    readonly command: Command,
    private readonly events: EngineEvent[],
    readonly base: EncounterState<RS>,
    private readonly writer: Writer,
  ) {
    this.state = draft;
    this.options = base.options;
    this.version = base.version + 1;
    this.rngState = base.rng;
  }

  private hiddenNow(id: string): boolean {
    const c = this.base.combatants[id];
    return c ? c.hidden : this.draft.combatants[id]?.hidden === true;
  }

  emit(event: EngineEvent): void {
    if (!event.gmOnly) {
      const cid = event.combatantId ?? event.targetId;
      if (typeof cid === 'string' && this.hiddenNow(cid)) event = { ...event, gmOnly: true };
    }
    // (a delete of a key the event does not have still costs a runtime call: only when it has one)
    if (event.gmOnly === undefined && Object.hasOwn(event, 'gmOnly')) delete event.gmOnly;
    if (event.type === 'dice.forced' || event.type === 'combatant.removed' || !CORE_EVENTS.has(event.type)) this.forcedTouched = true;
    evolve(this.ruleset, this.draft, event, this.writer);
    this.events.push(event);
  }

  roll(formula: string, purpose: string, opts: RollOptions = {}): RollResult {
    const draft = this.draft;
    // committed dice (docs/dice.md): sealed on the first roll, refused once revealed; the position goes into the event
    let draw = -1;
    if (this.base.dice) {
      const wasSealed = draft.dice!.sealed;
      draw = beforeCommittedRoll(this);
      if (!wasSealed) this.rngState = isDraft(draft.rng) ? current(draft.rng) : draft.rng;
    }
    const rng = new Rng(this.rngState);
    let outcome = rollFormula(formula, rng);
    let forcedIndex = -1;
    if ((this.forcedTouched ? draft : this.base).forcedRolls.length > 0) {
      const f0 = formula.replace(/\s+/g, '');
      forcedIndex = draft.forcedRolls.findIndex((f) => !f.formula || f.formula.replace(/\s+/g, '') === f0);
      if (forcedIndex >= 0) {
        const f = draft.forcedRolls[forcedIndex]!;
        const parsed = parseFormula(formula);
        if (f.faces && f.faces.length === diceCount(parsed)) outcome = { formula, ...totalFor(parsed, f.faces) };
        else if (f.total !== undefined) outcome = { ...outcome, total: f.total };
      }
    }
    const rngState = (this.rngState = rng.state());
    const id = `r${this.version}.${++this.idCounter}`;
    const combatantId = opts.combatantId ?? null;
    const event: EngineEvent = {
      type: 'dice.rolled',
      rollId: id,
      formula,
      faces: outcome.faces,
      total: outcome.total,
      purpose,
      combatantId,
      rngAfter: rngState,
    };
    if (draw >= 0) {
      event.draw = draw;
      event.drawn = rng.draws;
    }
    if (forcedIndex >= 0) {
      event.forced = true;
      event.forcedIndex = forcedIndex;
    }
    if (opts.gmOnly || (combatantId !== null && this.hiddenNow(combatantId))) event.gmOnly = true;
    this.emit(event);
    return { formula, faces: outcome.faces, total: outcome.total, id, purpose };
  }

  fail(code: ErrorCode, rule: string, message: string): never {
    throw new RuleViolation(code, rule, message);
  }

  openReaction(w: Omit<ReactionWindow, 'id' | 'responses'>): void {
    if (this.draft.reaction) throw new RuleViolation('REACTION_PENDING', 'engine.reactions', 'A reaction window is already open.');
    const responses: Record<string, 'pending'> = {};
    for (const id of w.eligible) responses[id] = 'pending';
    this.emit({ type: 'reaction.opened', window: { ...w, id: this.newId('w'), responses } });
  }

  newId(prefix: string): string {
    return `${prefix}${this.version}.${++this.idCounter}`;
  }
}
