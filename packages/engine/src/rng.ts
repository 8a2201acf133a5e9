import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

/** The serializable state of the encounter's PRNG (xoroshiro128+ from pure-rand). */
export type RngState = readonly number[];

export function seedRng(seed: number): RngState {
  return [...xoroshiro128plus(seed | 0).getState()];
}

/**
 * A mutable cursor over an `RngState`. Handlers draw from it; the engine stores `state()` back
 * into the encounter so the sequence continues deterministically.
 */
export class Rng {
  private readonly gen;
  /** the generator's 32-bit outputs drawn through this cursor (a die may take more than one) */
  draws = 0;
  constructor(state: RngState) {
    this.gen = xoroshiro128plusFromState(state);
  }
  /** Uniform integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this, from, to);
  }
  /** pure-rand's RandomGenerator, counted: what `uniformInt` draws from. */
  next(): number {
    this.draws += 1;
    return this.gen.next();
  }
  clone(): Rng {
    return new Rng(this.gen.getState());
  }
  getState(): readonly number[] {
    return this.gen.getState();
  }
  /** Skip `n` outputs (a verifier goes to a roll's position). */
  skip(n: number): void {
    for (let i = 0; i < n; i++) this.next();
  }
  state(): number[] {
    // getState builds a new array on every call (pure-rand's xoroshiro128+): no copy needed
    return this.gen.getState() as number[];
  }
}
