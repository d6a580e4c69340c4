import { defineConfig } from '@playwright/test';

/**
 * End-to-end: Debian's Chromium drives the browser UI, each test against its own
 * `skilldock serve` on a temporary SKILLDOCK_HOME and HOME (see e2e/app-fixture.ts).
 * `e2e/agents/` is the real-agent-CLI suite (Vitest, `npm run test:agents`), not Playwright.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'e2e',
  testIgnore: ['agents/**', 'fixtures/**'],
  testMatch: /.*\.spec\.ts$/,
  timeout: 60_000,
  expect: { timeout: 20_000 }, // generous: the two cores are shared with every other suite
  fullyParallel: false,
  workers: 1, // two cores shared by everything; each test starts its own server anyway
  retries: 0,
  outputDir: '.tmp/playwright',
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.tmp/reports/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.SKILLDOCK_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
