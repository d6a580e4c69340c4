import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { waitFor } from '../../test/support/wait.js';
import { getDeploy } from './service.js';

// The engine watches every folder an agent reads: a change on disk by anyone is a deploy-changed
// event soon after (about a second idle; the waits are loose for a loaded machine), also for a folder deleted while SkillDock is open and made again later.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const changes = () => w.events.filter((e) => e.type === 'deploy-changed').length;

describe('watching agents folders', () => {
  it('a link removed, the folder deleted, the folder made again: each seen soon after', async () => {
    await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool')] });
    await w.service.api.deploySet({ skills: ['tool'], agents: ['qwen'], mode: 'link' });
    getDeploy(w.service.ctx).watch();
    const folder = path.join(w.userHome, '.qwen', 'skills');
    let seen = changes();
    fs.unlinkSync(path.join(folder, 'tool'));
    await waitFor(() => changes() > seen, { timeoutMs: 5000 });
    expect((await w.service.api.deployStatus({ agent: 'qwen' })).entries[0]).toMatchObject({ state: 'missing' });
    seen = changes();
    fs.rmSync(path.join(w.userHome, '.qwen'), { recursive: true });
    await waitFor(() => changes() > seen, { timeoutMs: 5000 });
    seen = changes();
    writeSkill(path.join(folder, 'theirs'), 'theirs');
    await waitFor(() => changes() > seen, { timeoutMs: 5000 });
    const st = await w.service.api.deployStatus({ agent: 'qwen' });
    expect(st.entries.find((e) => e.name === 'theirs')).toMatchObject({ state: 'foreign' });
    // and the folder made again is watched itself, not only through its parent
    await waitFor(
      async () => {
        seen = changes();
        fs.writeFileSync(path.join(folder, 'README.md'), String(Date.now()));
        try {
          await waitFor(() => changes() > seen, { timeoutMs: 1000 });
          return true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 10_000 },
    );
  });
});
