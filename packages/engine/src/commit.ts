/**
 * Committed dice ("provably fair", docs/dice.md): the server's secret seed, its public commitment,
 * the participants' contributions, the derivation of the generator's state and the reveal.
 * Pure: the server draws the secret (node:crypto) and hands it to `createEncounter`.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import type { RngState } from './rng.js';

/** The scheme's name; it is also the first item of the derivation's input. */
export const DICE_SCHEME = 'fray-dice/v1';

/** The server's secret: 32 bytes of seed and 16 of salt, lowercase hex. */
export interface DiceSecret {
  seed: string;
  salt: string;
}

/** One participant's contribution: `gm` or `player:<id>`, and 32 bytes as lowercase hex. */
export interface DiceContribution {
  by: string;
  value: string;
}

/**
 * The committed dice of an encounter. Every viewer sees all of it except `secret`, which no
 * projection carries (the GM's neither) and which is published as `revealed` by `dice.reveal`.
 */
export interface DiceState {
  scheme: typeof DICE_SCHEME;
  /** SHA-256(seed || salt), lowercase hex: published at creation, before any contribution */
  commitment: string;
  /** in the order they came; closed when the dice are sealed */
  contributions: DiceContribution[];
  /** whether the generator's state was derived (at combat start or the first roll, whichever first) */
  sealed: boolean;
  /** how many 32-bit outputs the generator has given since it was sealed */
  draws: number;
  /** reveal when combat ends (default on) */
  autoReveal: boolean;
  /** the secret, once revealed */
  revealed: DiceSecret | null;
  /** the server's secret: in the server's state and log only, never projected */
  secret?: DiceSecret;
}

export const HEX64 = /^[0-9a-f]{64}$/;
export const HEX32 = /^[0-9a-f]{32}$/;

/** The commitment published at creation: SHA-256 over the seed's 32 bytes then the salt's 16, hex. */
export function commitmentOf(secret: DiceSecret): string {
  const seed = hexToBytes(secret.seed);
  const salt = hexToBytes(secret.salt);
  const both = new Uint8Array(seed.length + salt.length);
  both.set(seed, 0);
  both.set(salt, seed.length);
  return bytesToHex(sha256(both));
}

/**
 * The generator's 128-bit state: SHA-256 over the UTF-8 bytes of the canonical JSON
 * `["fray-dice/v1", seedHex, [[by, valueHex], ...]]` (contributions in log order); the digest's
 * first 16 bytes, as four big-endian signed 32-bit integers, are xoroshiro128+'s state in
 * pure-rand's order. An all-zero state (which never moves) takes the digest's last 16 bytes.
 */
export function deriveRngState(seedHex: string, contributions: readonly DiceContribution[]): RngState {
  const text = JSON.stringify([DICE_SCHEME, seedHex, contributions.map((c) => [c.by, c.value])]);
  const digest = sha256(utf8ToBytes(text));
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  const at = (offset: number) => [0, 4, 8, 12].map((i) => view.getInt32(offset + i, false));
  const first = at(0);
  return first.every((x) => x === 0) ? at(16) : first;
}

/** A new encounter's committed dice, from the server's secret. */
export function newDiceState(secret: DiceSecret): DiceState {
  if (!HEX64.test(secret.seed) || !HEX32.test(secret.salt))
    throw new TypeError('The dice secret must be a 32-byte seed and a 16-byte salt, lowercase hex.');
  return {
    scheme: DICE_SCHEME,
    commitment: commitmentOf(secret),
    contributions: [],
    sealed: false,
    draws: 0,
    autoReveal: true,
    revealed: null,
    secret: { ...secret },
  };
}

/** Who contributes: `gm`, `player:<id>`, or null for the runtime itself. */
export function participantOf(by: { role: string; playerId?: string }): string | null {
  if (by.role === 'gm') return 'gm';
  if (by.role === 'player' && by.playerId !== undefined) return `player:${by.playerId}`;
  return null;
}

const publicCache = new WeakMap<DiceState, DiceState>();
/** The dice as every viewer sees them: without the secret (the same object for the same dice). */
export function publicDice(dice: DiceState): DiceState {
  if (dice.secret === undefined) return dice;
  let out = publicCache.get(dice);
  if (!out) {
    const { secret: _s, ...rest } = dice;
    out = rest;
    publicCache.set(dice, out);
  }
  return out;
}
