import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, resourcesDir, runWorldCli, worldEnv, writeSkill, type World } from '../../test/support/library.js';
import { makeZip } from '../../test/support/zips.js';

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const cli = (...argv: string[]) => runWorldCli(w, ...argv);

describe('library CLI', () => {
  it('import, conflict exit 1, --on-conflict, --json, delete, trash, restore, undo', async () => {
    writeSkill(path.join(w.src, 'v1', 'tool'), 'tool', { 'v.txt': '1' });
    writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'v.txt': '2' });
    let r = await cli('import', 'v1/tool');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/imported\s+tool/);
    r = await cli('import', 'v1/tool');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/already in library/);
    r = await cli('import', 'v2/tool');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/CONFLICT[\s\S]*--on-conflict/);
    r = await cli('import', 'v2/tool', '--on-conflict', 'keep-both', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).results[0]).toMatchObject({ status: 'kept-both', libraryName: 'tool-2' });
    expect((await cli('import', 'v2/tool', '--on-conflict', 'sometimes')).code).toBe(2);
    expect((await cli('import')).code).toBe(2);

    r = await cli('delete', 'tool-2');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/tool-2: moved to the trash/);
    r = await cli('trash', '--json');
    expect(JSON.parse(r.out).items.map((t: { name: string }) => t.name)).toEqual(['tool-2']);
    r = await cli('restore', 'tool-2');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(w.home, 'library', 'tool-2'))).toBe(true);
    r = await cli('undo', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).undone.op).toBe('restore');
    expect(fs.existsSync(path.join(w.home, 'library', 'tool-2'))).toBe(false);
    r = await cli('delete', 'nope');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/No skill named "nope"/);
  });

  it('restore when the name is taken: --as another name or --replace; history lists what changed and what was undone', async () => {
    writeSkill(path.join(w.src, 'a', 'tool'), 'tool', { 'v.txt': 'old' });
    writeSkill(path.join(w.src, 'b', 'tool'), 'tool', { 'v.txt': 'new' });
    expect((await cli('import', 'a/tool')).code).toBe(0);
    expect((await cli('delete', 'tool')).code).toBe(0);
    expect((await cli('import', 'b/tool')).code).toBe(0);
    let r = await cli('restore', 'tool');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is in the library again. Replace it, restore under another name/);
    expect((await cli('restore', 'tool', '--as', 'x', '--replace')).code).toBe(2);
    r = await cli('restore', 'tool', '--as', 'tool-old');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(w.home, 'library', 'tool-old', 'v.txt'), 'utf8')).toBe('old');
    expect(fs.readFileSync(path.join(w.home, 'library', 'tool', 'v.txt'), 'utf8')).toBe('new');
    // --replace: the current one goes to the trash first, the old one comes back under its name
    expect((await cli('delete', 'tool-old')).code).toBe(0);
    r = await cli('restore', 'tool-old', '--replace');
    expect(r.code).toBe(1); // no skill named tool-old to replace: nothing changed
    expect((await cli('undo')).code).toBe(0); // brings tool-old back from the trash
    expect((await cli('delete', 'tool')).code).toBe(0);
    expect((await cli('import', 'b/tool')).code).toBe(0);
    r = await cli('restore', 'tool', '--replace', '--json');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(w.home, 'library', 'tool', 'v.txt'), 'utf8')).toBe('new');
    r = await cli('history', '--json');
    const ops = (JSON.parse(r.out) as { entries: { op: string }[] }).entries.map((e) => e.op);
    expect(ops.slice(0, 4)).toEqual(['restore', 'delete', 'import', 'delete']);
    r = await cli('history', '--limit', '3');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(4); // three entries, then how to undo or redo one
    expect(r.out).toMatch(/^\S+\s+\S+\s+restore\s+restore of tool\s+\[skills: tool\]$/m);
    expect((await cli('history', '--limit', 'lots')).code).toBe(2);
  });

  it('prints the rename of a folder named unlike its skill; offers no undo when nothing was imported', async () => {
    writeSkill(path.join(w.src, 'folder-x'), 'skill-x');
    let r = await cli('import', 'folder-x');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/imported\s+skill-x/);
    expect(r.out).toContain('named "skill-x" after the name in its SKILL.md, not after its folder "folder-x"');
    // the import's own id, to undo exactly it later
    const id = /Undo with: skilldock undo (\S+)/.exec(r.out)?.[1];
    expect(id).toMatch(/^[0-9a-z]+-[0-9a-f]{8}$/);
    expect((await cli('undo', id!)).code).toBe(0);
    expect(fs.readdirSync(w.home)).not.toContain('library');
    // A folder too deep is refused into the empty library: nothing changed, so no undo is offered.
    let cur = writeSkill(path.join(w.src, 'too-deep'), 'too-deep');
    for (let i = 0; i < 70; i++) fs.mkdirSync((cur = path.join(cur, 'd')));
    r = await cli('import', 'too-deep');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/REFUSED[\s\S]*nested more than 64 levels/);
    expect(r.out).not.toContain('Undo with');
    expect(fs.readdirSync(w.home)).not.toContain('library');
  });

  it('refused archives exit 1 with the reason; adopt lists and adopts; export', async () => {
    await makeZip(path.join(w.src, 'ok.zip'), { 'SKILL.md': '---\nname: zipped\ndescription: d\n---\n' });
    fs.writeFileSync(path.join(w.src, 'broken.zip'), 'PK\u0003\u0004 not really');
    let r = await cli('import', 'ok.zip', 'broken.zip');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/imported\s+zipped/);
    expect(r.out).toMatch(/REFUSED[\s\S]*truncated or corrupt/);

    writeSkill(path.join(w.userHome, '.claude', 'skills', 'native'), 'native');
    r = await cli('adopt');
    expect(r.out).toMatch(/native\s+adoptable/);
    expect((await cli('adopt', 'native')).code).toBe(2); // mode is the user's choice
    r = await cli('adopt', 'native', '--mode', 'link');
    expect(r.code).toBe(0);
    expect(fs.lstatSync(path.join(w.home, 'library', 'native')).isSymbolicLink()).toBe(true);

    r = await cli('export', 'zipped', '--agent', 'claude', '--mode', 'link');
    expect(r.code).toBe(0);
    expect(fs.readlinkSync(path.join(w.userHome, '.claude', 'skills', 'zipped'))).toBe(path.join(w.home, 'library', 'zipped'));
    expect((await cli('export', 'zipped')).code).toBe(2);
  });

  it('the real binary entry imports with SKILLDOCK_HOME and exits 1 on a conflict', () => {
    const entry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/entry.ts');
    writeSkill(path.join(w.src, 'a', 'x'), 'x', { 'n.txt': '1' });
    writeSkill(path.join(w.src, 'b', 'x'), 'x', { 'n.txt': '2' });
    const env = worldEnv(w);
    // tsx resolved from this repo (the child runs in a temp cwd)
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', tsx, entry, ...args], { cwd: w.src, env, encoding: 'utf8' });
    let r = run('import', 'a/x', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).results[0].status).toBe('imported');
    r = run('import', 'b/x');
    expect(r.status).toBe(1);
    r = run('undo');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Undid the import of/);
    expect(fs.readdirSync(path.join(w.home))).not.toContain('library');
  }, 60_000);

  it('two CLI processes importing into one library at once both succeed and both are journaled', async () => {
    const entry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/entry.ts');
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    for (let i = 0; i < 15; i++) {
      writeSkill(path.join(w.src, 'left', `l${i}`), `l${i}`, { 'data.txt': 'x'.repeat(5000) });
      writeSkill(path.join(w.src, 'right', `r${i}`), `r${i}`, { 'data.txt': 'y'.repeat(5000) });
    }
    const env = {
      ...process.env,
      HOME: w.userHome,
      SKILLDOCK_HOME: w.home,
      SKILLDOCK_USER_HOME: w.userHome,
      SKILLDOCK_RESOURCES: resourcesDir,
    };
    const start = (dir: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', tsx, entry, 'import', dir, '--json'], { cwd: w.src, env, stdio: 'ignore' });
        child.on('exit', (code) => resolve(code));
      });
    expect(await Promise.all([start('left'), start('right')])).toEqual([0, 0]);
    expect(fs.readdirSync(path.join(w.home, 'library')).length).toBe(30);
    const journal = fs.readFileSync(path.join(w.home, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(journal).toHaveLength(2);
    expect(fs.readdirSync(path.join(w.home, 'locks'))).toEqual([]);
  }, 60_000);
});
