import type { Ruleset } from '@fray/engine';
import { registry } from './registry.js';

export { registry };

export function getRuleset(id: string): Ruleset | undefined {
  return Object.prototype.hasOwnProperty.call(registry, id) ? registry[id] : undefined;
}
