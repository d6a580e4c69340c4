import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SkillDockEvent } from './contract/index.js';
import { createService, type SkillDockService } from './service.js';
import { getCatalog } from './catalog/index.js';
import { cliHarness, repo, type CliHarness } from '../test/cli-harness.js';
import { sleep, waitFor } from '../test/support/wait.js';

// Issue 23 item 5: the app (a long-lived engine, as under `skilldock serve` or Electron) learns
// within a second what a separate `skilldock` process changed in the same home, and what changed
// on disk at a linked skill's target. The real CLI, as its own node process; real files, real links.

/** The window promises "within a second" of the other process finishing (idle). */
// Idle, each change is announced in well under a second; the bound is loose because a fixed 1 s can
// fail a correct build on a loaded CI machine. What this proves is that each change is announced.
const WITHIN = 5000;

let h: CliHarness;
let app: SkillDockService;
let userHome: string;
let seen: Array<{ at: number; e: SkillDockEvent }>;

function skillDir(parent: string, name: string, script?: string): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Notes for tests. Use when asked.\n---\n\nBody.\n`);
  if (script) fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), script, { mode: 0o755 });
  return dir;
}

/** Run the CLI; returns when it exited (the clock for "within a second" starts there). */
function cli(...args: string[]): number {
  const r = h.run(args, { SKILLDOCK_USER_HOME: userHome });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return Date.now();
}

/** Wait for an event matching `match` and return how long after `since` it came. */
async function announced(since: number, what: string, match: (e: SkillDockEvent) => boolean): Promise<number> {
  await waitFor(() => seen.some((s) => s.at >= since && match(s.e)), {
    timeoutMs: 8000,
    what: () => `${what} (seen: ${JSON.stringify(seen.map((s) => s.e.type))})`,
  });
  return seen.find((s) => s.at >= since && match(s.e))!.at - since;
}

const danglingLinks = async () =>
  (await app.api.listCatalog({})).rootDiagnostics.filter((d) => d.code === 'link-dangling').map((d) => path.basename(d.file));

beforeAll(async () => {
  h = await cliHarness('sd-live-');
  userHome = path.join(h.base, 'home');
  app = createService({ paths: { home: path.join(h.base, 'sdhome'), userHome, resourcesDir: path.join(repo, 'resources') } });
  app.on((e) => seen.push({ at: Date.now(), e }));
  seen = [];
  const src = path.join(h.base, 'src');
  cli('import', skillDir(src, 'alpha-notes'), skillDir(src, 'script-tool', '#!/bin/sh\necho hello\n'));
  await app.live();
}, 120_000);
afterAll(async () => {
  await app.close();
  h.done();
});
beforeEach(() => {
  seen = [];
});

describe('changes made by a separate skilldock process reach the app within a second', () => {
  it('a CLI create and attach of an assistant: assistants-changed (watched before issue 23 too)', async () => {
    const created = cli('assistant', 'create', '--name', 'Helper', '--agent', 'claude');
    expect(await announced(created, 'assistants-changed', (e) => e.type === 'assistants-changed')).toBeLessThan(WITHIN);
    const attached = cli('assistant', 'attach', 'Helper', 'alpha-notes');
    expect(await announced(attached, 'assistants-changed', (e) => e.type === 'assistants-changed')).toBeLessThan(WITHIN);
  });

  it('a CLI delete, then its undo: library-changed naming the skill, and the catalog follows', async () => {
    const deleted = cli('delete', 'alpha-notes');
    const ms = await announced(
      deleted,
      'library-changed for the delete',
      (e) => e.type === 'library-changed' && e.names.includes('alpha-notes'),
    );
    expect(ms).toBeLessThan(WITHIN);
    expect((await app.api.listCatalog({})).entries.map((e) => e.name)).not.toContain('alpha-notes');

    const undone = cli('undo');
    const back = await announced(
      undone,
      'library-changed for the undo',
      (e) => e.type === 'library-changed' && e.names.includes('alpha-notes'),
    );
    expect(back).toBeLessThan(WITHIN);
    expect((await app.api.listCatalog({})).entries.map((e) => e.name)).toContain('alpha-notes');
  });

  it('a CLI approval and its revocation: approval-changed', async () => {
    const approved = cli('approve', 'script-tool');
    expect(await announced(approved, 'approval-changed', (e) => e.type === 'approval-changed')).toBeLessThan(WITHIN);
    expect((await app.api.getSkillTrust({ name: 'script-tool' })).status).toBe('approved');
    const revoked = cli('approve', '--revoke', 'script-tool');
    expect(await announced(revoked, 'approval-changed', (e) => e.type === 'approval-changed')).toBeLessThan(WITHIN);
  });

  it('a link into the library: dangling after a CLI delete, healthy again after the CLI undo', async () => {
    const claude = path.join(userHome, '.claude', 'skills');
    fs.mkdirSync(claude, { recursive: true });
    fs.symlinkSync(path.join(h.base, 'sdhome', 'library', 'alpha-notes'), path.join(claude, 'alpha-link'));
    await waitFor(async () => (await app.api.listCatalog({})).entries.some((e) => e.dirName === 'alpha-link'), {
      what: 'the link in the catalog',
    });

    const deleted = cli('delete', 'alpha-notes');
    await waitFor(async () => (await danglingLinks()).includes('alpha-link'), {
      timeoutMs: WITHIN + (Date.now() - deleted),
      what: 'the link dangling',
    });
    seen = [];
    const undone = cli('undo');
    // The link's own folder did not change: only its target came back.
    await waitFor(async () => !(await danglingLinks()).includes('alpha-link'), { timeoutMs: WITHIN, what: 'the link healthy again' });
    expect(seen.some((s) => s.at >= undone && s.e.type === 'catalog-changed')).toBe(true);
  });

  it('a link whose target elsewhere is moved away and back: dangling, then healthy, each announced', async () => {
    const target = skillDir(path.join(h.base, 'elsewhere'), 'far-notes');
    const link = path.join(userHome, '.claude', 'skills', 'far-notes');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link);
    await waitFor(async () => (await app.api.listCatalog({})).entries.some((e) => e.dirName === 'far-notes'), {
      what: 'the link in the catalog',
    });
    // The folder may have been made just now: the app watches it once its look for missing roots finds it.
    await waitFor(() => getCatalog(app.ctx).watching().includes(path.dirname(link)), { what: 'the new root watched' });

    for (let round = 0; round < 2; round++) {
      seen = [];
      const away = Date.now();
      fs.renameSync(target, `${target}.away`);
      expect(await announced(away, 'catalog-changed (target gone)', (e) => e.type === 'catalog-changed')).toBeLessThan(WITHIN);
      expect(await danglingLinks()).toContain('far-notes');
      const back = Date.now();
      fs.renameSync(`${target}.away`, target);
      expect(await announced(back, 'catalog-changed (target back)', (e) => e.type === 'catalog-changed')).toBeLessThan(WITHIN);
      expect(await danglingLinks()).not.toContain('far-notes');
      // And what changes inside the target from then on is seen again through the link.
      const edited = Date.now();
      const description = `Notes kept elsewhere, edit ${round}. Use when asked.`;
      fs.writeFileSync(path.join(target, 'SKILL.md'), `---\nname: far-notes\ndescription: ${description}\n---\n\nBody.\n`);
      expect(await announced(edited, 'catalog-changed (edit inside the target)', (e) => e.type === 'catalog-changed')).toBeLessThan(WITHIN);
      // The event seen may still be the one of the target coming back (a full run showed the old
      // description after it): the edit's own refresh follows, and the catalog shows it.
      const catalogDescription = async () => (await app.api.listCatalog({})).entries.find((e) => e.dirName === 'far-notes')?.description;
      await waitFor(async () => (await catalogDescription()) === description, {
        timeoutMs: 8000,
        what: 'the edit inside the target in the catalog',
      });
    }
  });

  it('says nothing for the app’s own changes beyond its own events', async () => {
    await app.api.deleteSkill({ name: 'script-tool' });
    await sleep(500); // a quiet period: a wrong echo would have come by now
    const library = seen.filter((s) => s.e.type === 'library-changed');
    expect(library).toHaveLength(1);
  });
});
