import { api } from './api.js';
import type { RulesetInfo } from './types.js';

let cached: Promise<RulesetInfo[]> | null = null;

/** GET /rulesets, once per page (the answer only changes with a new server build). */
export function loadRulesets(): Promise<RulesetInfo[]> {
  if (!cached) {
    cached = api<RulesetInfo[] | { rulesets: RulesetInfo[] }>('GET', '/rulesets').then((r) => (Array.isArray(r) ? r : r.rulesets));
    cached.catch(() => (cached = null));
  }
  return cached;
}
