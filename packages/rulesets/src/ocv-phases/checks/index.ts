/** Every "why not" of `ocv-phases`: pure checks answering null (allowed) or the refusal naming the most specific rule. */
export * from './turn.js';
export * from './movement.js';
export * from './attack.js';
export * from './holds.js';
export * from './actions.js';
export * from './gm.js';
export * from './windows.js';
