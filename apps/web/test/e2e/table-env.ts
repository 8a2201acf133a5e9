import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DESKTOP, launch, newPage, type Chrome } from './browser.js';
import { startServer, type TestServer } from './server.js';

/** A Fray server and a Chromium for one describe block, and the pages its tests open. */
export interface TableEnv {
  readonly srv: TestServer;
  readonly chrome: Chrome;
  /** browser contexts closed after the block's tests */
  readonly contexts: BrowserContext[];
  /** a page in a context of its own (closed after the block) */
  open(viewport?: { width: number; height: number }): Promise<Page>;
}

/** Starts the server and Chromium before the block's tests and closes them, and every context, after. */
export function tableEnv(): TableEnv {
  let srv: TestServer | undefined;
  let chrome: Chrome | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer(), launch()]);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });
  return {
    get srv() {
      return srv!;
    },
    get chrome() {
      return chrome!;
    },
    contexts,
    async open(viewport = DESKTOP) {
      const { context, page } = await newPage(chrome!.browser, viewport);
      contexts.push(context);
      return page;
    },
  };
}
