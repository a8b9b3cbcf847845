// Debian's chromium driven by playwright-core, headless and cut off from every host but
// the service under test (no background networking, updates, sync or QUIC).
import { rmSync } from 'node:fs';
import { tempDir } from './tempDirs.ts';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab that records console errors and uncaught exceptions into `errors`. */
  newPage: () => Promise<Page>;
  errors: string[];
  close: () => Promise<void>;
}

export async function startBrowser(): Promise<TestBrowser> {
  const profile = tempDir('opentox-chromium-');
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  const errors: string[] = [];
  return {
    context,
    errors,
    newPage: async () => {
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
