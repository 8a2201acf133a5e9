import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import { webPlugin } from '@fray/web';
import { buildServer, type FrayServer } from '../src/index.js';
import { testStore } from './helpers.js';

type Operation = { responses?: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

/**
 * Issue 29, "An OpenAPI document that tools accept": GET /docs/json passes a standard validator,
 * describes every response including each error body, keeps the web app's pages out, and a client
 * generator makes types from it.
 */
describe('GET /docs/json', () => {
  let server: FrayServer;
  let doc: Doc;
  const root = mkdtempSync(join(tmpdir(), 'fray-openapi-web-'));
  beforeAll(async () => {
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Fray</title>');
    writeFileSync(join(root, 'favicon.svg'), '<svg/>');
    server = await buildServer({ store: await testStore(), rulesets: registry, logLevel: 'silent' });
    // the web app as the server serves it: its pages and files must stay out of the API document
    await server.app.register(webPlugin, { root });
    const res = await server.app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<Doc>();
  });
  afterAll(async () => {
    await server.close();
    await server.context.store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('passes @apidevtools/swagger-parser validation ($refs resolve, the schema of OpenAPI 3.1 holds)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.components?.schemas).toHaveProperty('Error');
  });

  it("lists the API only: none of the web app's pages or files", () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/rulesets', '/accounts', '/encounters', '/encounters/{id}', '/metrics']));
    for (const p of paths) expect(p, p).toMatch(/^\/(health|rulesets|accounts?|sessions?|encounters|replays|metrics)(\/|$)/);
  });

  it('describes every response of every operation, and every error with the Error body', () => {
    let errors = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const responses = Object.entries(op.responses ?? {});
        expect(
          responses.some(([status]) => status.startsWith('2')),
          `${method} ${path} has a success response`,
        ).toBe(true);
        for (const [status, r] of responses) {
          expect(r.description, `${method} ${path} ${status}`).toBeTruthy();
          expect(r.description, `${method} ${path} ${status}`).not.toBe('Default Response');
          if (Number(status) >= 400 && !(path.startsWith('/health') && status === '503')) {
            expect(r.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Error');
            errors++;
          }
        }
        // every route can be rate limited and can fail
        expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toEqual(expect.arrayContaining(['429', '500']));
      }
    }
    expect(errors).toBeGreaterThan(50);
  });

  it('openapi-typescript generates types from it', async () => {
    const types = astToString(await openapiTS(structuredClone(doc) as never));
    expect(types).toContain('"/encounters/{id}/combatants": {');
    expect(types).toMatch(/Error: \{\s*error: \{\s*code: string;\s*message: string;/);
    expect(types).not.toContain('"/gm"');
  });
});
