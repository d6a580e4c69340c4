import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeEnv, repoRoot, tsxImport, writeSkill, type TestEnv } from '../../test/support/assistants.js';
import { waitFor } from '../../test/support/wait.js';

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(async () => {
  await env.cleanup();
});

function run(tag: string, count: number, goFile: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', tsxImport, path.join(repoRoot, 'test/support/hammer.ts'), tag, String(count), goFile],
    {
      cwd: repoRoot,
      env: env.childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

it('two processes updating assistants at once lose nothing', async () => {
  const count = 20;
  const library = path.join(env.home, 'library');
  for (const tag of ['a', 'b']) for (let i = 0; i < count; i++) writeSkill(library, `${tag}-skill-${i}`);
  const svc = env.service();
  await svc.api.createAssistant({ name: 'Shared', agent: 'claude' });

  const goFile = path.join(env.dir, 'go');
  const children = [run('a', count, goFile), run('b', count, goFile)];
  // Both children load the engine first, then start together on the signal.
  await waitFor(() => ['a', 'b'].every((t) => fs.existsSync(`${goFile}.ready-${t}`)), {
    timeoutMs: 60_000,
    what: 'both children to load the engine',
  });
  fs.writeFileSync(goFile, '');
  const results = await Promise.all(children);
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });

  const mine = (await svc.api.listAssistants({})).filter((a) => !a.builtin);
  const expectedNames = ['a', 'b'].flatMap((t) => Array.from({ length: count }, (_, i) => `${t}-${i}`));
  expect(mine.map((a) => a.name).sort()).toEqual(['Shared', ...expectedNames].sort());
  const shared = await svc.api.getAssistant({ assistant: 'Shared' });
  const expectedSkills = ['a', 'b'].flatMap((t) => Array.from({ length: count }, (_, i) => `${t}-skill-${i}`));
  expect(shared.skills.map((s) => s.name).sort()).toEqual(expectedSkills.sort());
  expect(shared.missingCount).toBe(0);
  // No lock or temp file left behind.
  expect(
    fs.readdirSync(env.home).filter((n) => n.startsWith('assistants.json') && n !== 'assistants.json' && n !== 'assistants.json.bak'),
  ).toEqual([]);
}, 120_000);
