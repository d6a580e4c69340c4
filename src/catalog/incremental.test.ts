import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogChangedEvent } from '../contract/index.js';
import { getSettings } from '../settings/settings.js';
import { catalogFor, countingAnalyze, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';
import { sleep, waitFor } from '../../test/support/wait.js';

/** File events are asynchronous: how long the catalog may take to see one. */
const FILE_EVENT = { timeoutMs: 8000, intervalMs: 25, what: 'a catalog change event' };

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const lib = () => path.join(sb.paths.home, 'library');
const changes = () => sb.events.filter((e): e is CatalogChangedEvent => e.type === 'catalog-changed');

/** mtime resolution: make sure a rewrite lands on a different mtime than the first write. */
function touchLater(file: string): void {
  const t = new Date(Date.now() + 5000);
  fs.utimesSync(file, t, t);
}

describe('incremental rescan', () => {
  it('re-reads only the skill that changed', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e']) writeSkill(path.join(lib(), n));
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze });
    await svc.list();
    expect(spy.calls).toHaveLength(5);

    // nothing changed: a full check reads no skill and reports nothing
    spy.calls.length = 0;
    const none = await svc.refresh();
    expect(spy.calls).toEqual([]);
    expect(none).toMatchObject({ added: [], changed: [], removed: [] });
    expect(changes()).toHaveLength(0);

    writeSkill(path.join(lib(), 'c'), { description: 'c changed' });
    touchLater(path.join(lib(), 'c', 'SKILL.md'));
    const change = await svc.refresh();
    expect(spy.calls).toEqual([path.join(lib(), 'c')]);
    expect(change).toMatchObject({ added: [], changed: ['library/c'], removed: [] });
    expect((await svc.get('c')).description).toBe('c changed');
    expect(changes()).toHaveLength(1);
    expect(changes()[0].generation).toBe(change.generation);
  });

  it('re-reads a skill whose script only changed mode (chmod +x moves no mtime)', async () => {
    writeSkill(path.join(lib(), 'runner'));
    fs.mkdirSync(path.join(lib(), 'runner', 'scripts'));
    const script = path.join(lib(), 'runner', 'scripts', 'go.sh');
    fs.writeFileSync(script, 'echo hi\n', { mode: 0o644 });
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze });
    await svc.list();
    spy.calls.length = 0;
    const { mtime } = fs.statSync(script);
    fs.chmodSync(script, 0o755);
    fs.utimesSync(script, mtime, mtime);
    await svc.refresh();
    expect(spy.calls).toEqual([path.join(lib(), 'runner')]);
  });

  it('notices a file added deeper in a skill, and added and removed skills', async () => {
    for (const n of ['a', 'b']) writeSkill(path.join(lib(), n));
    fs.mkdirSync(path.join(lib(), 'b', 'references'));
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze });
    const before = (await svc.list()).entries.find((e) => e.name === 'b')!;
    spy.calls.length = 0;

    fs.writeFileSync(path.join(lib(), 'b', 'references', 'new.md'), '# new\n');
    writeSkill(path.join(lib(), 'c'));
    fs.rmSync(path.join(lib(), 'a'), { recursive: true });
    const change = await svc.refresh();
    expect(change).toMatchObject({ added: ['library/c'], changed: ['library/b'], removed: ['library/a'] });
    expect([...spy.calls].sort()).toEqual([path.join(lib(), 'b'), path.join(lib(), 'c')]);
    const after = (await svc.list()).entries;
    expect(after.map((e) => e.id)).toEqual(['library/b', 'library/c']);
    expect(after[0].digest).not.toBe(before.digest);
    expect(after[0].fileCount).toBe(2);
  });

  it('refresh([dir]) re-reads exactly that skill even when its stat data did not move', async () => {
    for (const n of ['a', 'b', 'c']) writeSkill(path.join(lib(), n));
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze });
    await svc.list();
    spy.calls.length = 0;
    // A copy that keeps mtimes and size (cp -p, an unzip): only an explicit refresh can tell.
    const file = path.join(lib(), 'b', 'SKILL.md');
    const st = fs.statSync(file);
    const text = fs.readFileSync(file, 'utf8').replace('Does b things', 'Did b things');
    fs.writeFileSync(file, text);
    fs.utimesSync(file, st.atime, st.mtime);
    const change = await svc.refresh([path.join(lib(), 'b')]);
    expect(spy.calls).toEqual([path.join(lib(), 'b')]);
    expect(change.changed).toEqual(['library/b']);
    // a library import calls refresh with the new folder: it shows up as added
    writeSkill(path.join(lib(), 'imported'));
    spy.calls.length = 0;
    expect((await svc.refresh([path.join(lib(), 'imported')])).added).toEqual(['library/imported']);
    expect(spy.calls).toEqual([path.join(lib(), 'imported')]);
  });

  it('never walks a folder that is not a skill, and notices when it becomes one', async () => {
    writeSkill(path.join(lib(), 'real'));
    const repo = path.join(lib(), 'some-repo');
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, 'src', 'deep', `f${i}.js`), 'x'.repeat(1000));
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze });
    expect((await svc.list()).entries.map((e) => e.dirName)).toEqual(['real']);
    expect(spy.calls).toEqual([path.join(lib(), 'real')]);
    writeSkill(path.join(repo, 'src', 'inner'));
    expect((await svc.refresh()).added).toEqual([]);
    expect((await svc.list()).rootDiagnostics.map((d) => d.code)).toEqual([]); // three levels down: not reported
    writeSkill(path.join(repo, 'nested-now'));
    await svc.refresh();
    expect((await svc.list()).rootDiagnostics.map((d) => d.file)).toEqual([path.join(repo, 'nested-now', 'SKILL.md')]);
    writeSkill(repo);
    expect((await svc.refresh()).added).toEqual(['library/some-repo']);
  });

  it('re-checks an unwatched root on list, so a changed skill is never served stale', async () => {
    writeSkill(path.join(lib(), 'a'), { description: 'one' });
    const svc = catalogFor(sb);
    expect((await svc.get('a')).description).toBe('one');
    writeSkill(path.join(lib(), 'a'), { description: 'two' });
    touchLater(path.join(lib(), 'a', 'SKILL.md'));
    expect((await svc.get('a')).description).toBe('two');
  });

  it('picks up a link pointed elsewhere and a dangling link that was repaired', async () => {
    const v1 = writeSkill(path.join(sb.base, 'v1', 'tool'), { description: 'v1' });
    const v2 = writeSkill(path.join(sb.base, 'v2', 'tool'), { description: 'v2' });
    fs.mkdirSync(lib(), { recursive: true });
    fs.symlinkSync(v1, path.join(lib(), 'tool'));
    fs.symlinkSync(path.join(sb.base, 'later'), path.join(lib(), 'later'));
    const svc = catalogFor(sb);
    expect((await svc.get('tool')).description).toBe('v1');
    expect((await svc.list()).rootDiagnostics.map((d) => d.code)).toEqual(['link-dangling']);
    fs.unlinkSync(path.join(lib(), 'tool'));
    fs.symlinkSync(v2, path.join(lib(), 'tool'));
    writeSkill(path.join(sb.base, 'later'));
    const change = await svc.refresh();
    expect(change.added).toEqual(['library/later']);
    expect(change.changed).toEqual(['library/tool']);
    expect((await svc.get('tool')).provenance.realPath).toBe(v2);
    expect((await svc.list()).rootDiagnostics).toEqual([]);
  });
});

describe('watch', () => {
  it('emits debounced catalog-changed events for added, changed and removed skills', async () => {
    writeSkill(path.join(lib(), 'a'));
    writeSkill(path.join(lib(), 'b'));
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze, debounceMs: 100, pollMs: 100 });
    const watching = await svc.watch();
    expect(watching).toContain(lib());
    spy.calls.length = 0;

    writeSkill(path.join(lib(), 'c'));
    await waitFor(() => changes().some((e) => e.added.includes('library/c')), FILE_EVENT);

    const n = changes().length;
    // a burst of writes to one skill: one event, one re-read
    for (let i = 0; i < 5; i++) writeSkill(path.join(lib(), 'a'), { description: `edit ${i}` });
    await waitFor(() => changes().length > n && changes().some((e) => e.changed.includes('library/a')), FILE_EVENT);
    await sleep(300);
    expect(
      changes()
        .slice(n)
        .filter((e) => e.changed.includes('library/a')),
    ).toHaveLength(1);
    expect((await svc.get('a')).description).toBe('edit 4');

    fs.rmSync(path.join(lib(), 'b'), { recursive: true });
    await waitFor(() => changes().some((e) => e.removed.includes('library/b')), FILE_EVENT);
    expect((await svc.list()).entries.map((e) => e.id)).toEqual(['library/a', 'library/c']);
    // watched roots are trusted on list: no re-check of unchanged skills
    expect(spy.calls.filter((c) => c.endsWith(`${path.sep}c`))).toHaveLength(1);
    await svc.unwatch();
    expect(svc.watching()).toEqual([]);
  });

  it('watches an extra root added in settings and tells listeners the roots changed', async () => {
    const svc = catalogFor(sb, { debounceMs: 50, pollMs: 100 });
    await svc.watch();
    const extra = path.join(sb.base, 'extra');
    fs.mkdirSync(extra);
    getSettings(sb.ctx).update({ language: 'en' }); // unrelated setting: no catalog event
    getSettings(sb.ctx).update({ extraRoots: [extra] });
    await waitFor(() => changes().length === 1, FILE_EVENT);
    await waitFor(() => svc.watching().includes(extra), FILE_EVENT);
    expect(changes()).toHaveLength(1);
    expect(changes()[0]).toMatchObject({ added: [], changed: [], removed: [] });
    writeSkill(path.join(extra, 'from-extra'));
    await waitFor(() => changes().some((e) => e.added.includes(`extra:${extra}/from-extra`)), FILE_EVENT);
    await svc.unwatch();
  });

  it('starts watching a root that did not exist yet when it appears', async () => {
    const svc = catalogFor(sb, { debounceMs: 50, pollMs: 100 });
    await svc.watch();
    const root = path.join(sb.paths.userHome, '.qwen', 'skills');
    writeSkill(path.join(root, 'late'));
    await waitFor(() => changes().some((e) => e.added.includes('user:.qwen/skills/late')), FILE_EVENT);
    writeSkill(path.join(root, 'later'));
    await waitFor(() => changes().some((e) => e.added.includes('user:.qwen/skills/later')), FILE_EVENT);
    await svc.unwatch();
  });
});
