import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, header, project, removeProjects, runCount } from './support/count-project.js';

// test/support/leak-check.ts (every Vitest file's first setup file) on a fixture project run
// through scripts/test.mjs, the way `npm test` runs the suite: a file that leaves a timer, a
// server or a child process behind after its last test fails, and the closing line counts it.

const dirs: string[] = [];
afterAll(() => removeProjects(dirs));
const setupFiles = [path.resolve(__dirname, 'support', 'leak-check.ts')];

const imports = `${header}import net from 'node:net';\nimport { spawn } from 'node:child_process';\n`;
/** A child that lives until its stdin closes: gone with the fixture's worker, never left running. */
const child = `spawn(process.execPath, ['-e', "process.stdin.resume(); process.stdin.on('end', () => process.exit())"], { stdio: ['pipe', 'ignore', 'ignore'] })`;
const listen = `await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))`;

describe.concurrent('the leak check fails a test file that leaves something running', () => {
  it('a late timer, an open server and a live child process each fail their file, and are counted', async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `it('passes ${i}', () => {});`).join('\n');
    const r = await runCount(
      project(
        {
          setupFiles,
          tests: {
            // The case: a timer that rejects 150 ms after the file's last test.
            'timer.test.mjs': `${imports}${nine}\nit('leaves a timer', () => { setTimeout(() => Promise.reject(new Error('late on purpose')), 150); });\n`,
            'server.test.mjs': `${imports}it('leaves a server listening', async () => { const server = net.createServer(); ${listen}; });\n`,
            'child.test.mjs': `${imports}it('leaves a child running', () => { ${child}; });\n`,
            // The same things stopped: no failure.
            'clean.test.mjs': `${imports}it('stops all it starts', async () => {
  clearTimeout(setTimeout(() => {}, 150));
  const server = net.createServer(); ${listen};
  await new Promise((resolve) => server.close(resolve));
  const c = ${child};
  await new Promise((resolve) => { c.on('exit', resolve); c.kill(); });
});\n`,
          },
        },
        dirs,
      ),
    );
    // 9 + 1 + 1 + 1 + 1 tests pass; each leaking file is one failure more.
    expect(r.line).toBe(`${13 + CHECKS} passed, 3 failed, 0 skipped`);
    expect(r.status).toBe(1);
    expect(r.counts).toMatchObject({ passed: 13 + CHECKS, failed: 3, skipped: 0 });
    // Each is said next to the closing line, with what was left open.
    const closing = r.out.slice(r.out.lastIndexOf('step times'));
    const said = (file: string) =>
      new RegExp(`! cases/${file}: failed outside its tests:\\n\\s+[^\\n]*left open after its last test[^\\n]*`);
    expect(closing).toMatch(
      new RegExp(`${said('timer.test.mjs').source}a timer \\(setTimeout/setInterval\\) set\\n\\s+at [^\\n]*timer\\.test\\.mjs`),
    );
    expect(closing).toMatch(new RegExp(`${said('server.test.mjs').source}1 × TCP server \\(TCPServerWrap\\)`));
    expect(closing).toMatch(new RegExp(`${said('child.test.mjs').source}1 × child process \\(ProcessWrap\\)`));
    expect(closing).not.toContain('clean.test.mjs');
  }, 120_000); // a whole counted run (7.6 s idle): under CI load the default 30 s is too close
});
