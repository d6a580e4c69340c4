import { defineConfig } from 'vitest/config';

// `npm run test:agents`: real agent CLIs, pinned, installed once into a cache outside the project's
// node_modules by the global setup, then asked offline what they discovered.
export default defineConfig({
  test: {
    include: ['e2e/agents/**/*.test.ts'],
    globalSetup: ['e2e/agents/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // The CLIs are heavy to start; one file at a time keeps two cores usable.
    fileParallelism: false,
  },
});
