import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.mjs';

/**
 * End-to-end: Debian's Chromium drives the browser UI, each test against its own
 * `skilldock serve` on a temporary SKILLDOCK_HOME and HOME (see e2e/app-fixture.ts).
 * `e2e/agents/` is the real-agent-CLI suite (Vitest, `npm run test:agents`), not Playwright.
 */
export default defineConfig({
  testDir: 'e2e',
  testIgnore: ['agents/**', 'fixtures/**'],
  testMatch: /.*\.spec\.ts$/,
  timeout: 150_000, // each test starts a server and a browser on a shared two-core machine
  expect: { timeout: 20_000 }, // generous: the two cores are shared with every other suite
  fullyParallel: false,
  // Two: a test spends most of its time waiting on its page and its server, not computing, so two
  // side by side (each worker with its own browser, each test with its own server and home) keep a
  // two-core machine busy. npm test starts them once the code checks are done.
  workers: 2,
  retries: 0,
  outputDir: '.tmp/playwright',
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.tmp/reports/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
