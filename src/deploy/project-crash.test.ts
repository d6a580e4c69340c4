import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../../test/support/library.js';
import { bundleChild, runChild, view } from '../../test/support/crash-kit.js';
import { makeRepo } from '../../test/support/git-servers.js';
import { ALPHA, BETA } from '../../test/support/reference-lock.js';

// A project deploy killed (SIGKILL) at every step of the write-ahead path: after the next
// operation settles it (doctor --repair), the project is either exactly as before or exactly as
// planned, never half: folders, copies, links and skills-lock.json (which had other entries).

let w: World;
let script: string;
const OLD_LOCK =
  '{\n  "version": 1,\n  "skills": {\n    "zeta": {\n      "source": "owner/zeta",\n      "sourceType": "github",\n      "computedHash": "abc"\n    }\n  }\n}\n';
const input = (project: string) => ({ project, skills: ['alpha', 'beta'], agents: ['claude', 'codex'] });

function freshProject(name: string): string {
  const p = path.join(w.root, 'projects', name);
  fs.mkdirSync(p, { recursive: true });
  fs.writeFileSync(path.join(p, 'skills-lock.json'), OLD_LOCK);
  return p;
}

beforeAll(async () => {
  w = makeWorld();
  script = await bundleChild();
  const repo = makeRepo(path.join(w.root, 'git'), 'repo', {
    'skills/alpha/SKILL.md': ALPHA,
    'skills/alpha/scripts/run.sh': 'echo hi\n',
    'skills/beta/SKILL.md': BETA,
  });
  await w.service.api.addFromSource({ source: repo.bare });
  await w.service.api.approveSkill({ name: 'alpha' });
}, 120_000);

afterAll(async () => {
  fs.rmSync(path.dirname(script), { recursive: true, force: true });
  await w?.done();
});

describe('a project deploy killed midway', () => {
  it('at every step: after doctor --repair the project is as before or as planned', async () => {
    const done = freshProject('reference');
    const before = view(w, done);
    const ok = await runChild(script, w, 'applyProjectDeploy', input(done));
    expect(ok.code, ok.err).toBe(0);
    const after = view(w, done);
    expect(after).not.toEqual(before);
    const seen = new Set<string>();
    for (let at = 1; at <= 40; at++) {
      const p = freshProject(`p${at}`);
      const r = await runChild(script, w, 'applyProjectDeploy', input(p), at);
      await w.service.api.doctor({ repair: true });
      const now = view(w, p);
      const which =
        JSON.stringify(now) === JSON.stringify(before) ? 'before' : JSON.stringify(now) === JSON.stringify(after) ? 'after' : null;
      expect(which, `killed at step ${at}: ${JSON.stringify(now)}`).not.toBeNull();
      seen.add(which!);
      if (r.signal !== 'SIGKILL') break; // ran to the end: every step was tried
    }
    expect([...seen].sort()).toEqual(['after', 'before']);
    // Nothing of a rolled-back deploy is left in the home but the kept copies of old locks.
    expect(fs.existsSync(path.join(w.home, 'pending-operation.jsonl'))).toBe(false);
  }, 300_000);
});
