import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';

// `skilldock deploy | undeploy | status | repair` as a child process on a temporary home.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const cli = (...argv: string[]) => runWorldCli(w, ...argv);
const claude = (...p: string[]) => path.join(w.userHome, '.claude', 'skills', ...p);

describe('deploy CLI', () => {
  it('deploy, status, drift, repair, undeploy, undo; usage errors exit 2', async () => {
    writeSkill(path.join(w.src, 'tool'), 'tool');
    const imp = await cli('import', 'tool');
    expect(imp.code, imp.err + imp.out).toBe(0);
    let r = await cli('deploy', 'tool', '--agent', 'claude');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`place   ${claude('tool')} (link)`);
    expect(r.out).toMatch(/also turns it on for opencode/);
    expect(fs.readlinkSync(claude('tool'))).toBe(path.join(w.home, 'library', 'tool'));

    r = await cli('status', '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.entries).toMatchObject([{ path: claude('tool'), state: 'in-sync', managed: true, mode: 'link' }]);

    fs.unlinkSync(claude('tool'));
    r = await cli('status', '--agent', 'claude');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/missing\s+tool \[link\]/);
    r = await cli('repair', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).steps).toMatchObject([{ action: 'place', path: claude('tool') }]);

    writeSkill(path.join(w.userHome, '.qwen', 'skills', 'tool'), 'tool');
    r = await cli('deploy', 'tool', '--agent', 'qwen', '--mode', 'copy');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is not SkillDock's .* "tool" was not placed/);

    r = await cli('undeploy', 'tool', '--agent', 'claude');
    expect(r.code).toBe(0);
    expect(fs.lstatSync(claude('tool'), { throwIfNoEntry: false })).toBeUndefined();
    expect((await cli('undo')).code).toBe(0);
    expect(fs.readlinkSync(claude('tool'))).toBe(path.join(w.home, 'library', 'tool'));

    expect((await cli('deploy', 'tool')).code).toBe(2);
    expect((await cli('deploy', '--all-agents')).code).toBe(2);
    expect((await cli('deploy', 'tool', '--all-agents', '--mode', 'hard')).code).toBe(2);
    r = await cli('deploy', 'ghost', '--agent', 'claude');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/ghost/);
  });
});
