/** What every ruleset's recording driver of the engine bench (all.bench.ts) shares: apply with the BENCH_DIGEST / BENCH_CHECK hooks, and a player loop. */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { apply, type EncounterState, type Ruleset } from '@fray/engine';

export const gm = { role: 'gm' } as const;
export type Cmd = Record<string, unknown>;
export type St = EncounterState;

// BENCH_DIGEST=1: a hash of every apply result while recording (states, events, errors) and of
// legalActions on the sampled states, printed per ruleset: equal digests before and after a change
// mean the same behaviour on the whole stream.
export const digest = process.env.BENCH_DIGEST ? createHash('sha256') : null;
// BENCH_CHECK=1: while recording, a ruleset on the copy-on-write path (`cow`) is also run on the
// mutative draft path (the same ruleset with cow: false), on deep-frozen input states: the results
// must be byte-identical and the input never written (a write to a frozen state throws).
const check = Boolean(process.env.BENCH_CHECK);
const freeze = <T>(v: T, seen = new Set<object>()): T => {
  if (typeof v !== 'object' || v === null || seen.has(v)) return v;
  seen.add(v);
  for (const k of Object.keys(v)) freeze((v as Record<string, unknown>)[k], seen);
  return Object.freeze(v);
};
export function recApply(R: Ruleset, s: St, c: Cmd): ReturnType<typeof apply> {
  if (check && R.cow) {
    freeze(s);
    const viaDraft = JSON.stringify(apply({ ...R, cow: false }, s, c));
    const viaCow = apply(R, s, c);
    if (JSON.stringify(viaCow) !== viaDraft)
      throw new Error(`${R.id}: the copy-on-write path differs from the draft path on ${JSON.stringify(c)}`);
  }
  const r = apply(R, s, c);
  if (digest) {
    if (!r.ok) digest.update(JSON.stringify(r));
    else {
      digest.update(JSON.stringify(r.state));
      for (const ev of r.events) digest.update(eventText(ev));
    }
    if (process.env.BENCH_DIGEST_LOG) {
      const line = r.ok
        ? `${createHash('sha1').update(JSON.stringify(r.state)).digest('hex')} ${r.events.map(eventText).join(' ')}`
        : JSON.stringify(r);
      appendFileSync(process.env.BENCH_DIGEST_LOG, `${line}\n`);
    }
  }
  return r;
}
/** An event as text; a field that cannot be serialized (a revoked draft) is written as "<revoked>". */
function eventText(ev: Record<string, unknown>): string {
  try {
    return JSON.stringify(ev);
  } catch {
    return JSON.stringify(
      Object.fromEntries(
        Object.keys(ev).map((k) => {
          try {
            return [k, JSON.parse(JSON.stringify(ev[k]) ?? 'null') as unknown];
          } catch {
            return [k, '<revoked>'];
          }
        }),
      ),
    );
  }
}

export function must(R: Ruleset, s: St, c: Cmd): St {
  const r = recApply(R, s, c);
  if (!r.ok) throw new Error(`${String(c.type)}: ${r.error.rule}: ${r.error.message}`);
  return r.state;
}

export interface Recorded {
  started: St;
  log: Cmd[];
}

/** Play by a candidates function: the first legal candidate is sent; `fallback` when none is. */
export function play(R: Ruleset, started: St, count: number, candidates: (s: St, n: number) => Cmd[], fallback: (s: St) => Cmd): Recorded {
  let s = started;
  const log: Cmd[] = [];
  let n = 0;
  while (log.length < count) {
    let done = false;
    for (const c of candidates(s, n++)) {
      const r = recApply(R, s, c);
      if (r.ok) {
        s = r.state;
        log.push(c);
        done = true;
        break;
      }
    }
    if (!done) {
      const c = fallback(s);
      s = must(R, s, c);
      log.push(c);
    }
    if (s.status !== 'active') throw new Error(`${R.id}: the fight ended after ${log.length} commands`);
  }
  return { started, log };
}
