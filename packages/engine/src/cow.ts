/**
 * Copy-on-write working state: the alternative to a mutative draft for rulesets that declare
 * `cow: true` (see `Ruleset.cow`).
 *
 * At the start of a command the engine copies, shallowly, the parts of the state that handlers
 * hold on to across an `emit`: the root, the combatant map, every combatant (its top level), the
 * clock and the top level of `rs`. Those copies belong to the command: `evolve` changes them in
 * place, and handlers read them as plain objects (no proxy), seeing every event emitted so far, as
 * they saw the draft. Anything deeper (a combatant's `data` and `items`, the effect list, the
 * reaction window, what `rs` holds) is copied on its first write, through `Writer.own`, and changed
 * in place after that; values an event brings in (`Writer.adopt`) are the command's too. A handler
 * that holds such a deeper object across an `emit` sees it as it was (re-read it from the state).
 *
 * When the command ends, every copy equal (same keys in the same order, same values) to what it
 * was copied from is replaced by the original, bottom up: the new state shares every unchanged
 * subtree with the one before, and the state before is never written.
 */
import type { Clock, Combatant, EncounterState } from './types.js';
import type { Writer } from './writer.js';
import {
  CLOCK_KEYS,
  KEYS,
  ROOT_KEYS,
  allPlainShaped,
  copyClock,
  copyCombatant,
  copyMap,
  copyRootSpread,
  hasKeys,
  isObj,
  knownShaped,
  literalClock,
  literalCombatant,
  literalRoot,
  rememberShaped,
  sameClock,
  type Obj,
} from './shapes.js';

const copyRs = <T extends object>(v: T): T => ({ ...v });
// `own` copies many kinds of part. One spread site for all of them is megamorphic (~5x slower than
// a site that sees one shape), so each key a part sits under is given one of these sites, in turn
// (32: the keys of the four rulesets, ~20, each get their own, and a key that several rulesets use,
// such as `data`, sees at most one shape per ruleset).
type Copier = <P extends Obj>(v: P) => P;
const copiers: Copier[] = [
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
  (v) => ({ ...v }),
];
const copyElement: Copier = (v) => ({ ...v });
const copyOther: Copier = (v) => ({ ...v });
const copierByKey = new Map<string, Copier>();
function copierFor(key: string | number): Copier {
  if (typeof key === 'number') return copyElement;
  let f = copierByKey.get(key);
  if (f === undefined) {
    // keys are field names, a bounded set; anything past that (ids as keys) shares one site
    if (copierByKey.size >= 256) return copyOther;
    f = copiers[copierByKey.size % copiers.length]!;
    copierByKey.set(key, f);
  }
  return f;
}

/**
 * Whether a copy still equals what it was copied from (same values; the same keys, counted: a
 * copy only loses keys by `delete` and gains them by assignment, so equal counts and values mean
 * the same keys, and the same order unless a key was deleted and set again to the same value).
 * Its keyed reads are megamorphic (every part's keys): a ruleset's `same` for a part it knows
 * reads it field by field and falls back on this (exported as `sameShallow`).
 */
export function sameObj<T>(c: T, o: T): boolean {
  let n = 0;
  for (const k in o) {
    if (c[k] !== o[k]) return false;
    n++;
  }
  for (const _k in c) if (--n < 0) return false;
  return n === 0;
}

function sameArr(c: unknown[], o: unknown[]): boolean {
  if (c.length !== o.length) return false;
  for (let i = 0; i < c.length; i++) if (c[i] !== o[i]) return false;
  return true;
}

function same(x: object, o: object): boolean {
  return Array.isArray(x) ? Array.isArray(o) && sameArr(x, o) : !Array.isArray(o) && sameObj(x, o);
}

interface Owned {
  parent: Record<string | number, unknown>;
  key: string | number;
  copy: object;
  orig: object;
  /**
   * the ruleset's comparison for this part (given with its copy), or undefined; a method, so that
   * the comparison of any part's type is kept here: it is only ever called with this copy and orig
   */
  same?(copy: unknown, orig: unknown): boolean;
}

/** `sameObj` for two combatants that both have exactly `KEYS` (named reads, which stay monomorphic). */
const sameCombatant = (c: Combatant, o: Combatant): boolean =>
  c.id === o.id &&
  c.name === o.name &&
  c.side === o.side &&
  c.controller === o.controller &&
  c.hidden === o.hidden &&
  c.secretStats === o.secretStats &&
  c.stats === o.stats &&
  c.position === o.position &&
  c.items === o.items &&
  c.data === o.data;

export class Work<RS = unknown> implements Writer {
  /** copies made by `own`, in order, with where they were put and what they were copied from */
  private readonly owned: Owned[] = [];
  /**
   * the command's own objects (copies `own` made, values adopted): a list while it is short (a Set
   * per command, and a hash per object put in it, cost more than a scan of a few), then a Set
   */
  private readonly mineList: object[] = [];
  private mineSet: Set<object> | null = null;
  readonly root: EncounterState<RS>;
  /** the parts copied up front, for `finish` */
  private readonly cs: Record<string, Combatant>;
  /** the combatants copied up front: their ids, the copies and the originals, index for index */
  private readonly ids: string[];
  private readonly shells: Combatant[] = [];
  private readonly origs: Combatant[];
  /** objects changed in place through the writer (parents of `own`, reported `changed`); repeats allowed */
  private readonly touched: object[] = [];
  private readonly shaped: boolean;
  private readonly clock: Clock;
  private readonly rs: RS | null = null;

  /**
   * `adopting` false: values events bring in are copied on write like the rest (for `rebuild`, whose
   * events may be objects that earlier states already hold).
   */
  constructor(
    readonly base: EncounterState<RS>,
    private readonly adopting = true,
    /** the ruleset's copy of `rs` (`Ruleset.copyRs`), if it has one */
    copyRsOf?: (rs: RS) => RS,
    /** the ruleset's comparison of `rs` with its copy (`Ruleset.sameRs`), if it has one */
    private readonly sameRsOf?: (copy: RS, orig: RS) => boolean,
  ) {
    const shaped = (this.shaped = knownShaped(base) || allPlainShaped(base));
    const root = shaped ? literalRoot(base) : copyRootSpread(base);
    this.root = root;
    const cs = copyMap(base.combatants);
    this.cs = cs;
    root.combatants = cs;
    // ids and combatants read in one go each (a keyed load per combatant costs more)
    const ids = (this.ids = Object.keys(cs));
    const origs = (this.origs = Object.values(cs));
    const shells = this.shells;
    for (let i = 0; i < ids.length; i++) {
      const c = shaped ? literalCombatant(origs[i]!) : copyCombatant(origs[i]!);
      shells.push(c);
      cs[ids[i]!] = c;
    }
    root.clock = this.clock = shaped ? literalClock(base.clock) : copyClock(base.clock);
    if (isObj(base.rs)) root.rs = this.rs = copyRsOf ? copyRsOf(base.rs) : copyRs(base.rs);
  }

  own<T>(parent: object, key: string | number, copy?: (value: T) => T, same?: (copy: T, orig: T) => boolean): T {
    // the Writer contract: `parent` is a plain object of the state, and the caller names its part's type
    const p = parent as Record<string | number, T>;
    const v = p[key]!;
    this.touched.push(p);
    if (!isObj(v) || this.isMine(v)) return v;
    const arr = Array.isArray(v);
    const c: T & object = arr ? (v.slice() as T & unknown[]) : copy !== undefined ? (copy(v) as T & object) : copierFor(key)(v);
    this.addMine(c);
    this.owned.push({ parent: p, key, copy: c, orig: v, same: arr || copy === undefined ? undefined : same });
    p[key] = c;
    return c;
  }

  adopt<T>(value: T): T {
    if (this.adopting && isObj(value)) this.addMine(value);
    return value;
  }

  changed(combatant: object): void {
    this.touched.push(combatant);
  }

  private isMine(v: object): boolean {
    return this.mineSet !== null ? this.mineSet.has(v) : this.mineList.includes(v);
  }

  private addMine(v: object): void {
    if (this.mineSet !== null) this.mineSet.add(v);
    else if (this.mineList.push(v) > 16) this.mineSet = new Set(this.mineList);
  }

  /** Whether the combatant map has exactly the ids it was copied with, in the same order. */
  private sameIds(): boolean {
    const ids = this.ids;
    let i = 0;
    for (const id in this.cs) if (id !== ids[i++]) return false;
    return i === ids.length;
  }

  /** `finish` for the combatant map when ids were added or removed; returns whether it is still shaped. */
  private finishCombatantsSlow(shapedIn: boolean): boolean {
    let shaped = shapedIn;
    const bcs = this.base.combatants;
    const cs = this.cs;
    const { ids, shells } = this;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const c = shells[i]!;
      if (cs[id] !== c) {
        // removed, or replaced by a new combatant (checked like an added one)
        if (shaped && Object.hasOwn(cs, id) && !hasKeys(cs[id]!, KEYS)) shaped = false;
        continue;
      }
      if (!this.touched.includes(c) || sameObj(c, bcs[id])) cs[id] = bcs[id]!;
      else if (shaped && !hasKeys(c, KEYS)) shaped = false;
    }
    if (sameObj(cs, bcs)) this.root.combatants = bcs;
    else if (shaped) for (const id in cs) if (!Object.hasOwn(bcs, id) && !hasKeys(cs[id]!, KEYS)) shaped = false;
    return shaped;
  }

  /** The new state: copies that did not change give way to their originals, deepest first. */
  finish(): EncounterState<RS> {
    const base = this.base;
    const root = this.root;
    const owned = this.owned;
    for (let i = owned.length - 1; i >= 0; i--) {
      const { parent, key, copy, orig, same: sameOf } = owned[i]!;
      if (parent[key] === copy && (sameOf !== undefined ? sameOf(copy, orig) : same(copy, orig))) parent[key] = orig;
    }
    const bcs = base.combatants;
    const cs = this.cs;
    let shaped = this.shaped;
    if (root.combatants !== cs) shaped = false;
    else if (!this.sameIds()) shaped = this.finishCombatantsSlow(shaped);
    else {
      // The usual case: the same ids in the same order. The map's values are read in one go and
      // the new map is a copy of the one before with the changed combatants put in (a keyed load
      // and store per combatant cost more than that).
      const { ids, shells, origs } = this;
      const now = Object.values(cs);
      let out: Record<string, Combatant> | null = null;
      for (let i = 0; i < now.length; i++) {
        const v = now[i]!;
        const c = shells[i]!;
        let put: Combatant;
        if (v === origs[i]) continue;
        if (v !== c) {
          // replaced by a new combatant under the same id (checked like an added one)
          if (shaped && !hasKeys(v, KEYS)) shaped = false;
          put = v;
        } else if (!this.touched.includes(c)) continue;
        else {
          // a shaped state's combatants have exactly KEYS: compare field by field when the copy still has them
          const exact = this.shaped && hasKeys(c, KEYS);
          if (exact ? sameCombatant(c, origs[i]!) : sameObj(c, origs[i]!)) continue;
          if (shaped && !exact) shaped = false;
          put = c;
        }
        if (out === null) out = copyMap(bcs);
        out[ids[i]!] = put;
      }
      root.combatants = out ?? bcs;
    }
    if (shaped && !hasKeys(root, ROOT_KEYS)) shaped = false;
    // the clock: the copy may have gained keys (clock.changed), or been replaced
    const clockKept = root.clock === this.clock;
    const clockShaped = shaped && isObj(root.clock) && hasKeys(root.clock, CLOCK_KEYS);
    if (clockKept && (clockShaped && this.shaped ? sameClock(this.clock, base.clock) : sameObj(this.clock, base.clock)))
      root.clock = base.clock;
    if (!clockShaped) shaped = false;
    if (shaped) rememberShaped(this.root);
    if (this.rs && root.rs === this.rs && (this.sameRsOf ? this.sameRsOf(this.rs, base.rs) : sameObj(this.rs, base.rs))) root.rs = base.rs;
    return this.root;
  }
}
