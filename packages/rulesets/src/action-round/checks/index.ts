/**
 * Every "why not" of the ruleset: pure functions of the state that answer null (allowed) or the
 * refusal naming the most specific rule. Commands `ensure` them; legal.ts shows the same ones as
 * `blocked`, so the two agree.
 */
export * from './turn.js';
export * from './movement.js';
export * from './attack.js';
export * from './actions.js';
