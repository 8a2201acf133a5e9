/** Every "why not" of the legends ruleset: pure functions of the state answering null (allowed) or the refusal. */
export { actGate, checkAct } from './act.js';
export { checkTarget, targetCheck } from './targets.js';
export { handCheck } from './specific.js';
export { checkReorder } from './turns.js';


