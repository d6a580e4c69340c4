import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';

// An agent folder on another filesystem than SkillDock's library gets copies, not links, and the
// user is told so (issue 26, bad input). /dev/shm is a tmpfs on Linux machines: the user's
// ~/.claude is a link to a folder there, as a dotfolder kept on another disk would be.

const SHM = '/dev/shm';
let w: World;
let shm: string | null = null;

/** Why the test cannot run here, or null. */
function noOtherFilesystem(): string | null {
  if (!fs.existsSync(SHM)) return `${SHM} does not exist on this machine`;
  if (fs.statSync(SHM).dev === fs.statSync(w.home).dev) return `${SHM} is on the same filesystem as ${w.home}`;
  return null;
}

beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
  if (shm) fs.rmSync(shm, { recursive: true, force: true });
  shm = null;
});

const api = () => w.service.api;
const claude = (...p: string[]) => path.join(w.userHome, '.claude', 'skills', ...p);

/** ~/.claude on /dev/shm, and one library skill. */
async function setUp(): Promise<void> {
  shm = fs.mkdtempSync(path.join(SHM, 'sd-deploy-'));
  fs.mkdirSync(path.join(shm, 'claude'));
  fs.symlinkSync(path.join(shm, 'claude'), path.join(w.userHome, '.claude'));
  await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool')] });
}

describe('an agent folder on another filesystem', () => {
  it('gets a copy where a link was asked for, says so, stays in sync, and undo takes the copy away', async (ctx) => {
    const why = noOtherFilesystem();
    if (why) ctx.skip(why);
    await setUp();
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    expect(r.steps).toMatchObject([{ action: 'place', path: claude('tool'), mode: 'copy' }]);
    expect(r.notices).toEqual([{ key: 'deploy.other-filesystem', params: { folder: claude(), agents: ['claude', 'opencode'] } }]);
    const st = fs.lstatSync(claude('tool'));
    expect(st.isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(claude('tool', 'SKILL.md'), 'utf8')).toMatch(/^name: tool$/m);
    expect(fs.statSync(claude('tool')).dev).not.toBe(fs.statSync(w.home).dev);

    const s = await api().deployStatus({});
    expect(s.entries).toMatchObject([{ path: claude('tool'), state: 'in-sync', mode: 'copy' }]);
    expect(s.cells.find((c) => c.skill === 'tool' && c.agent === 'claude')).toMatchObject({ wanted: 'link', on: true, state: 'in-sync' });
    expect(s.folders.find((f) => f.path === claude())!.notice).toMatchObject({ key: 'deploy.other-filesystem' });
    // the other folders are on the library's filesystem: no notice, links there
    expect(s.folders.filter((f) => f.notice).map((f) => f.path)).toEqual([claude()]);
    expect((await api().deployRepair({})).steps).toEqual([]);

    await api().undo({});
    expect(fs.existsSync(claude('tool'))).toBe(false);
    // what undo took away was kept on SkillDock's side (moved across filesystems), for redo
    await api().redo({});
    expect(fs.readFileSync(claude('tool', 'SKILL.md'), 'utf8')).toMatch(/^name: tool$/m);
  });

  it('skilldock deploy and status say it', async (ctx) => {
    const why = noOtherFilesystem();
    if (why) ctx.skip(why);
    await setUp();
    let r = await runWorldCli(w, 'deploy', 'tool', '--agent', 'claude');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`place   ${claude('tool')} (copy)`);
    expect(r.out).toContain(`${claude()} (read by claude, opencode) is on another filesystem than SkillDock's library`);
    r = await runWorldCli(w, 'status', '--agent', 'claude');
    expect(r.out).toMatch(/i .* is on another filesystem than SkillDock's library: skills are placed there as copies, not links/);
    expect(r.code, r.out).toBe(0);
  }, 60_000);
});
