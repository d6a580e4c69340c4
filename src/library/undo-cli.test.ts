import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';

// `skilldock undo [ID]`, `skilldock redo [ID]` and `skilldock history` with ids and what each
// entry touched (issue 23), through the built CLI on a real library.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const cli = (...argv: string[]) => runWorldCli(w, ...argv);
const lib = (...p: string[]) => path.join(w.home, 'library', ...p);

async function ids(): Promise<Record<string, string>> {
  const r = await cli('history', '--json');
  const entries = (JSON.parse(r.out) as { entries: Array<{ id: string; op: string; touched?: { skills: string[] } }> }).entries;
  return Object.fromEntries(entries.filter((e) => e.touched).map((e) => [`${e.op}:${e.touched!.skills.join(',')}`, e.id]));
}

describe('undo, redo and history on the command line', () => {
  it('history shows each id and what it touched; undo ID of an older operation, redo ID, refusals name the later operation', async () => {
    writeSkill(path.join(w.src, 'alpha'), 'alpha');
    writeSkill(path.join(w.src, 'beta'), 'beta');
    expect((await cli('import', 'alpha')).code).toBe(0);
    expect((await cli('import', 'beta')).code).toBe(0);
    expect((await cli('export', 'beta', '--agent', 'claude', '--mode', 'link')).code).toBe(0);
    const id = await ids();

    let r = await cli('history');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${id['export:beta']}  `);
    expect(r.out).toMatch(/export\s+export of beta to Claude Code\s+\[skills: beta; agent: Claude Code; at: \S+\.claude\/skills\/beta\]/);
    expect(r.out).toMatch(/import\s+import of alpha\s+\[skills: alpha\]/);

    // the older import of alpha, while beta's import and export stay
    r = await cli('undo', id['import:alpha']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Undid the import of alpha.');
    expect(r.out).toContain(`skilldock redo ${id['import:alpha']}`);
    expect(fs.existsSync(lib('alpha'))).toBe(false);
    expect(fs.existsSync(lib('beta'))).toBe(true);
    r = await cli('trash');
    expect(r.out).toContain('alpha');

    // beta's import has a later operation on the same skill (the export links to it)
    r = await cli('undo', id['import:beta']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `Cannot undo the import of beta: a later operation, the export of beta to Claude Code (${id['export:beta']}), changed the same files.`,
    );
    expect(fs.existsSync(lib('beta'))).toBe(true);

    r = await cli('undo', id['import:alpha']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('The import of alpha was already undone');

    r = await cli('redo', id['import:alpha'], '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).redone.id).toBe(id['import:alpha']);
    expect(fs.existsSync(lib('alpha', 'SKILL.md'))).toBe(true);
    r = await cli('history');
    expect(r.out).toMatch(/redo of import of alpha/);
    expect(r.out).toMatch(/undo of import of alpha/);

    r = await cli('redo');
    expect(r.code).toBe(1);
    expect(r.err).toContain('Nothing to redo');
    expect((await cli('undo', 'a', 'b')).code).toBe(2);
  });
});
