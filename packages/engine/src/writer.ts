/** How `evolve` writes: the interface, and the writer of the mutative path. Copy-on-write's own is `Work` (cow.ts). */
/** How `evolve` writes below the parts copied up front. */
export interface Writer {
  /**
   * `parent[key]`, made the command's own (copied once, then changed in place) so that it may be
   * changed. `parent` must itself be the command's own (a part copied up front, or a value `own`
   * or `adopt` returned). `copy`, when given, makes the shallow copy (a ruleset's own copy function
   * for a part it changes often: a spread at a site of its own stays monomorphic, where the engine's
   * shared sites see every ruleset's shapes); it must return a plain copy with the same keys in
   * the same order. `same`, when given with `copy`, tells whether the copy still equals the
   * original at the end of the command (same keys in the same order, same values: what
   * `sameShallow` says), with reads at a site of the ruleset's own for the same reason.
   */
  own<T>(parent: object, key: string | number, copy?: (value: T) => T, same?: (copy: T, orig: T) => boolean): T;
  /** Marks a new value that `evolve` puts into the state as the command's own, and returns it. */
  adopt<T>(value: T): T;
  /**
   * Says that `evolve` changed a combatant's own fields in place (`position`, or `Object.assign`):
   * a combatant not reported changed (nor written below through `own`) is given back as it was.
   */
  changed(combatant: object): void;
}

/** The writer of the mutative path: the draft copies on write by itself. */
export const draftWriter: Writer = {
  own<T>(parent: object, key: string | number): T {
    return (parent as Record<string | number, unknown>)[key] as T;
  },
  adopt<T>(value: T): T {
    return value;
  },
  changed(): void {},
};
