/**
 * A set of strings that may answer "maybe" for one it never saw, and never "no" for one it did:
 * a scalable Bloom filter (Almeida et al., "Scalable Bloom Filters", 2007). An encounter keeps
 * the command ids it ever accepted in one, so that a refused command whose id it does not hold
 * is answered without reading the log for an earlier acceptance (see EncounterHost.refuse).
 *
 * Each stage is a plain Bloom filter sized for its capacity at the stage's error rate; when a
 * stage is full the next one has twice the capacity and half the error rate, so the whole filter
 * stays under about twice the first stage's rate (0.25 % by default: 0.45 % measured with 20,000
 * ids over seven stages) however many ids it takes. A stage costs about 1.6 bytes an id of its
 * capacity at 0.25 %.
 *
 * Written here rather than taken from npm: the packages that have a scalable variant bring
 * several dependencies for what is about sixty lines, and this one needs only strings in.
 */
interface Stage {
  bits: Uint32Array;
  /** bits in the stage */
  m: number;
  /** hash functions */
  k: number;
  capacity: number;
  count: number;
}

export class IdFilter {
  private readonly stages: Stage[] = [];
  private nextCapacity: number;
  private nextErrorRate: number;

  /** `capacity`: ids the first stage holds at `errorRate` (the later stages double it) */
  constructor(capacity = 1024, errorRate = 0.0025) {
    if (!(errorRate > 0 && errorRate < 1)) throw new RangeError('errorRate must be between 0 and 1');
    this.nextCapacity = Math.max(16, Math.ceil(capacity));
    this.nextErrorRate = errorRate;
  }

  /** ids added (a repeated one counts again) */
  get size(): number {
    let n = 0;
    for (const s of this.stages) n += s.count;
    return n;
  }

  /** bytes of bit arrays held */
  get bytes(): number {
    let n = 0;
    for (const s of this.stages) n += s.bits.byteLength;
    return n;
  }

  add(id: string): void {
    let s = this.stages[this.stages.length - 1];
    if (!s || s.count >= s.capacity) s = this.grow();
    const [h1, h2] = hashes(id);
    for (let i = 0; i < s.k; i++) {
      const b = (h1 + Math.imul(i, h2)) >>> 0;
      const bit = b % s.m;
      s.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    s.count += 1;
  }

  /** false: `id` was never added; true: it probably was */
  has(id: string): boolean {
    if (this.stages.length === 0) return false;
    const [h1, h2] = hashes(id);
    for (const s of this.stages) {
      let all = true;
      for (let i = 0; i < s.k; i++) {
        const bit = ((h1 + Math.imul(i, h2)) >>> 0) % s.m;
        if ((s.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) {
          all = false;
          break;
        }
      }
      if (all) return true;
    }
    return false;
  }

  private grow(): Stage {
    const n = this.nextCapacity;
    const p = this.nextErrorRate;
    // the optimal size and hash count of a Bloom filter for n items at error rate p
    const m = Math.max(64, Math.ceil((-n * Math.log(p)) / (Math.LN2 * Math.LN2)));
    const k = Math.max(1, Math.round((m / n) * Math.LN2));
    const stage: Stage = { bits: new Uint32Array(Math.ceil(m / 32)), m, k, capacity: n, count: 0 };
    this.stages.push(stage);
    this.nextCapacity = n * 2;
    this.nextErrorRate = p / 2;
    return stage;
  }
}

/** 32-bit FNV-1a over a string's UTF-16 code units (unsigned), from `basis` (FNV's offset basis by default). */
export function fnv1a(s: string, basis = 0x811c9dc5): number {
  let h = basis;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Two independent 32-bit hashes of a string (FNV-1a with two offset bases, each finished with
 * murmur3's mixer); the k bit positions are h1 + i·h2 (Kirsch and Mitzenmacher's double hashing).
 * h2 is made odd so that its multiples do not fold together.
 */
function hashes(s: string): [number, number] {
  return [fmix(fnv1a(s)) >>> 0, (fmix(fnv1a(s, 0x01000193 ^ 0x5bd1e995) ^ 0x9e3779b9) | 1) >>> 0];
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
