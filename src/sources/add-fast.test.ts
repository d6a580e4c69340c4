import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, type World } from '../../test/support/library.js';
import { git, makeRepo, skillMd, startHttpGit, type Served } from '../../test/support/git-servers.js';
import { getSources } from './service.js';
import { readJournal } from '../library/journal.js';

// Issue 28: `add` from git gives the scratch checkout's skill folders to the base store by a
// rename instead of a copy (the checkout is removed right after, so it was copied only to be
// deleted). The fast path must leave exactly what the copy left: library files, provenance,
// digests, journal, and after undo the same library, base store and trash. The slow path is the
// same add from a checkout the service did not make (as a project install hands one in).

let served: Served;
let url: string;
const worlds: World[] = [];

beforeAll(async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-addfast-')));
  const repo = makeRepo(root, 'many', {
    'skills/plain/SKILL.md': skillMd('plain'),
    'skills/plain/references/notes.md': 'notes\n'.repeat(500),
    'skills/tool/SKILL.md': skillMd('tool', 'Run scripts/run.sh'),
    'skills/tool/scripts/run.sh': '#!/bin/sh\necho hi\n',
    // a skill holding a folder that looks like another skill: discovery stops at the outer one
    'skills/outer/SKILL.md': skillMd('outer'),
    'skills/outer/inner/SKILL.md': skillMd('inner'),
  });
  fs.chmodSync(path.join(repo.work, 'skills/tool/scripts/run.sh'), 0o755);
  fs.symlinkSync('notes.md', path.join(repo.work, 'skills/plain/references/same.md'));
  git(repo.work, 'add', '-A');
  git(repo.work, 'commit', '-q', '-m', 'exec bit and a link inside');
  git(repo.work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  served = await startHttpGit(path.join(root, 'served'));
  url = `${served.base}/many.git`;
  worlds.push({ root } as World);
}, 60_000);

afterAll(async () => {
  await served?.stop();
  for (const w of worlds) {
    if (w.service) await w.done();
    else fs.rmSync(w.root, { recursive: true, force: true });
  }
});

/** What an add leaves on disk and in the records, with times and random ids taken out. */
function state(w: World) {
  const home = w.home;
  const prov = JSON.parse(fs.readFileSync(path.join(home, 'sources', 'provenance.json'), 'utf8')) as {
    skills?: Record<string, Record<string, unknown>>;
  } & Record<string, unknown>;
  const skills = (prov.skills ?? prov) as Record<string, Record<string, unknown>>;
  const origins = Object.fromEntries(
    Object.entries(skills).map(([n, o]) => [n, { ...o, time: 'T', source: { ...(o.source as object), url: 'U', given: 'G' } }]),
  );
  const entries = readJournal(w.service.ctx).map((e) => ({
    op: e.op,
    undone: Boolean(e.undone),
    skills: e.skills,
    changes: (e.changes ?? []).map((c) => {
      const p = (c as { path?: string }).path;
      return p ? { ...c, path: path.relative(home, p) } : c;
    }),
  }));
  // Random names differ between the two homes: the scratch folder, trash entries, undo records
  // (and a trash entry's digest, which covers its meta.json with its id and time).
  const words = JSON.stringify(entries)
    .replaceAll(home, 'HOME')
    .replace(/\d+-[0-9a-f]{6}-\w{6}/g, 'SCRATCH')
    .replace(/\d{8}T\d{6}Z-([\w-]+?)-[0-9a-f]{6}/g, 'TRASH-$1')
    .replace(/undone\/[a-z0-9]+-[0-9a-f]{8}/g, 'undone/ID')
    .replace(/undone\/[a-z0-9]+-[0-9a-f]{8}/g, 'undone/ID')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME');
  const journal = JSON.parse(words, (_k, v: unknown) =>
    v && typeof v === 'object' && String((v as { path?: string }).path).endsWith('/meta.json') ? { ...v, digest: 'META' } : v,
  ) as unknown;
  const trash = path.join(home, 'trash');
  const trashed = fs.existsSync(trash)
    ? Object.fromEntries(
        fs
          .readdirSync(trash)
          .filter((d) => fs.existsSync(path.join(trash, d, 'skill')))
          .map((d) => [d.replace(/^\d{8}T\d{6}Z-|-[0-9a-f]{6}$/g, ''), snapshot(path.join(trash, d, 'skill'))]),
      )
    : {};
  const snap = (dir: string) => (fs.existsSync(dir) ? snapshot(dir, (r) => r.endsWith('.tmp')) : {});
  return {
    library: snap(path.join(home, 'library')),
    base: snap(path.join(home, 'sources', 'base')),
    origins,
    journal,
    trashed,
    staging: fs.existsSync(path.join(home, 'staging', 'sources')) ? fs.readdirSync(path.join(home, 'staging', 'sources')) : [],
  };
}

async function addBothWays(): Promise<{ fast: World; slow: World }> {
  const fast = makeWorld();
  const slow = makeWorld();
  worlds.push(fast, slow);
  await fast.service.api.addFromSource({ source: url });
  const svc = getSources(slow.service.ctx);
  const p = svc.parse(url);
  const co = await svc.checkout(p);
  // A `done` the service did not make: the checkout is not its scratch, so it copies.
  await svc.addFrom(p, { ...co, done: () => co.done() }, { source: url });
  return { fast, slow };
}

describe('add from git: the base store takes the scratch folders by rename', () => {
  it('leaves the same library, provenance, digests, journal and staging as the copy', async () => {
    const { fast, slow } = await addBothWays();
    const a = state(fast);
    const b = state(slow);
    expect(
      Object.keys(a.library)
        .filter((r) => !r.includes('/'))
        .sort(),
    ).toEqual(['outer', 'plain', 'tool']);
    expect(a.library['tool/scripts/run.sh']).toMatch(/^file:755:/);
    expect(a.library['plain/references/same.md']).toBe('link:notes.md');
    expect(Object.keys(a.base).filter((r) => !r.includes('/'))).toHaveLength(3);
    expect(a.library['outer/inner/SKILL.md']).toMatch(/^file:/);
    expect(a).toEqual(b);
    expect(a.staging).toEqual([]);
  }, 120_000);

  it('undo takes out the same: library, base store and trash alike', async () => {
    const { fast, slow } = await addBothWays();
    await fast.service.api.undo({});
    await slow.service.api.undo({});
    const a = state(fast);
    const b = state(slow);
    expect(a.base).toEqual({});
    expect(a).toEqual(b);
    await fast.service.api.redo({});
    await slow.service.api.redo({});
    expect(state(fast)).toEqual(state(slow));
  }, 120_000);
});
