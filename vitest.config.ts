import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'main/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'e2e'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where most
    // files wait on child processes (the CLI, git, servers) far more than they compute. Two keep
    // both cores busy; on bigger machines the default stands.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // The CLI the component tests spawn is built from the sources first.
    globalSetup: ['test/global-setup.ts'],
    // Every file fails when it leaves a timer, socket, server or child process behind
    // (test/support/leak-check.ts; first, so its afterAll runs after every other).
    // Engine files are validated with schemas provided by name (src/store/lazy-schema.ts); the
    // service imports them, and so does every test file, which may use a domain without it.
    setupFiles: ['test/support/leak-check.ts', 'src/schemas.ts'],
  },
});
