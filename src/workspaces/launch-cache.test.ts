import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogService, type AnalyzeFn } from '../catalog/index.js';
import { analyzeSkill } from '../skills/index.js';
import { getSecurity } from '../security/security-service.js';
import { createService, type SkillDockService } from '../service.js';
import { resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { waitFor } from '../../test/support/wait.js';

// Issue 4 with the catalog watched (as the desktop app and the browser server run it): a launch of
// unchanged skills reads no skill file, neither in the catalog nor in security; a script edited after
// approval is still refused once the catalog's watcher has reported it, and a chmod +x alone (which
// the catalog's digest does not see) once security's own folder watch has. Real files, real links.

let sb: Sandbox;
let svc: SkillDockService;
let analyses: string[];

beforeEach(async () => {
  sb = sandbox();
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
  analyses = [];
  // The real analyser, counted: installed before anything asks for the catalog.
  const analyze: AnalyzeFn = (dir, opts) => {
    analyses.push(path.basename(dir));
    return analyzeSkill(dir, opts);
  };
  svc.ctx.use('catalog', () => new CatalogService(svc.ctx, { analyze, debounceMs: 20 }));
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

/** Resolves with the next `catalog-changed` event that names `id` as changed. */
function catalogChanged(id: string): Promise<void> {
  return new Promise((resolve) => {
    const off = svc.on((e) => {
      if (e.type === 'catalog-changed' && e.changed.includes(id)) {
        off();
        resolve();
      }
    });
  });
}

async function setup(): Promise<void> {
  writeSkill(sb.lib, 'tool', {
    body: 'Run `./scripts/x.sh` to do it.',
    files: { 'scripts/x.sh': '#!/bin/sh\necho one\n', 'assets/data.txt': 'rows\n' },
  });
  writeSkill(sb.lib, 'notes');
  // an adopted skill: the library holds a link to a folder elsewhere
  const outside = writeSkill(path.join(sb.dir, 'elsewhere'), 'linked', { body: 'Read the guide.' });
  fs.symlinkSync(outside, path.join(sb.lib, 'linked'), 'dir');
  await svc.live(); // as the desktop app and the browser server run
  await svc.api.approveSkill({ name: 'tool' });
  await svc.api.createAssistant({ name: 'Helper', agent: 'claude', rules: 'Be brief.', skills: ['tool', 'notes', 'linked'] });
}

describe('launch with a watched catalog', () => {
  it('a second launch of unchanged skills reads no skill file (catalog and security) and links them all', async () => {
    await setup();
    const security = getSecurity(svc.ctx);
    const first = await svc.api.launchAssistant({ assistant: 'Helper' });
    expect(first.problems).toEqual([]);
    const analysed = analyses.length;
    const reads = security.surfaces.reads;
    const stampChecks = security.surfaces.stampChecks;
    expect(analyses.filter((n) => ['tool', 'notes', 'linked'].includes(n)).sort()).toEqual(['linked', 'notes', 'tool']); // the first scan, once each

    const second = await svc.api.launchAssistant({ assistant: 'Helper' });
    expect(analyses.length).toBe(analysed);
    expect(security.surfaces.reads).toBe(reads);
    expect(security.surfaces.stampChecks).toBe(stampChecks); // no stat walk either
    // and the launch is whole: real links to real folders with SKILL.md, state dirs, context file, guard
    expect(second.problems).toEqual([]);
    expect(second.links.map((l) => [l.skill, l.ok])).toEqual([
      ['tool', true],
      ['notes', true],
      ['linked', true],
    ]);
    for (const l of second.links) {
      expect(fs.lstatSync(l.path).isSymbolicLink()).toBe(true);
      expect(fs.realpathSync(l.path)).toBe(fs.realpathSync(l.target));
      expect(fs.statSync(path.join(l.path, 'SKILL.md')).isFile()).toBe(true);
    }
    expect(fs.realpathSync(second.links[2]!.path)).toBe(path.join(sb.dir, 'elsewhere', 'linked'));
    for (const d of second.stateDirs) expect(fs.lstatSync(d.dir).isDirectory()).toBe(true);
    expect(fs.readFileSync(second.contextFile!, 'utf8')).toContain('Be brief.');
    expect(fs.existsSync(path.join(second.workspace, '.claude', 'settings.json'))).toBe(true);
  });

  it('refuses a skill whose script was edited after approval, once the catalog reported the edit', async () => {
    await setup();
    expect((await svc.api.launchAssistant({ assistant: 'Helper' })).problems).toEqual([]);
    const tool = await svc.api.getSkill({ name: 'tool' });
    const reported = catalogChanged(tool.id);
    fs.writeFileSync(path.join(sb.lib, 'tool', 'scripts', 'x.sh'), '#!/bin/sh\necho two\n'); // same size
    await reported;
    const refused = await svc.call('launchAssistant', { assistant: 'Helper' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(!refused.ok && refused.error.message).toContain('"tool" (changed since approval)');
    const omit = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'omit' });
    expect(omit.links.map((l) => l.skill)).toEqual(['notes', 'linked']);
    const skip = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'skip' });
    expect(skip.problems.map((p) => [p.skill, p.code])).toEqual([['tool', 'script-blocked']]);
  });

  it('refuses it after a chmod +x alone too (no catalog event: security watches the folders it read)', async () => {
    await setup();
    expect((await svc.api.launchAssistant({ assistant: 'Helper' })).problems).toEqual([]);
    const security = getSecurity(svc.ctx);
    const real = fs.realpathSync(path.join(sb.lib, 'tool'));
    expect(security.surfaces.holds(real)).toBe(true);
    const data = path.join(real, 'assets', 'data.txt');
    const { atime, mtime } = fs.statSync(data);
    fs.chmodSync(data, 0o755);
    fs.utimesSync(data, atime, mtime);
    await waitFor(() => !security.surfaces.holds(real), { intervalMs: 10, what: 'a file event' });
    const r = await svc.call('launchAssistant', { assistant: 'Helper' });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(!r.ok && r.error.message).toContain('"tool" (changed since approval)');
  });
});
