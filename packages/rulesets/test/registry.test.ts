import { describe, expect, it } from 'vitest';
import { registry } from '../src/index.js';

describe('registry', () => {
  it('each ruleset is registered under its own id, with options that all have defaults', () => {
    for (const [id, r] of Object.entries(registry)) {
      expect(r.id).toBe(id);
      expect(r.optionsSchema.safeParse({}).success).toBe(true);
      for (const key of Object.keys(r.optionsSchema.parse({}) as object)) expect(r.optionDocs[key], `${id}.${key} documented`).toBeTruthy();
      expect(r.catalogue.length).toBeGreaterThan(0);
    }
  });
});
