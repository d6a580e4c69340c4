import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LintReportSchema } from '../contract/index.js';
import { SkillDockService } from '../service.js';
import { catalogFor, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

describe('lintPaths', () => {
  it('lints a skill folder, its SKILL.md, and a root with its root-level codes', async () => {
    const root = path.join(sb.base, 'root');
    const good = writeSkill(path.join(root, 'good'));
    writeSkill(path.join(root, 'dup-a'), { name: 'dup' });
    writeSkill(path.join(root, 'dup-b'), { name: 'dup' });
    writeSkill(path.join(root, 'group', 'nested'));
    fs.symlinkSync(path.join(sb.base, 'missing'), path.join(root, 'gone'));
    fs.symlinkSync(root, path.join(root, 'loop'));
    fs.mkdirSync(path.join(root, '.git'));
    const svc = catalogFor(sb);

    const one = await svc.lint([good]);
    expect(LintReportSchema.parse(one)).toEqual(one);
    expect(one).toEqual({
      skills: [{ name: 'good', dir: good, diagnostics: [] }],
      summary: { skills: 1, errors: 0, warnings: 0, infos: 0 },
    });
    expect((await svc.lint([path.join(good, 'SKILL.md')])).skills[0].dir).toBe(good);

    const all = await svc.lint([root]);
    const by = Object.fromEntries(all.skills.map((s) => [path.relative(root, s.dir), s.diagnostics.map((d) => d.code)]));
    expect(Object.keys(by)).toEqual(['dup-a', 'dup-b', 'gone', 'good', 'group/nested', 'loop']);
    expect(by['dup-a']).toContain('skill-duplicate');
    expect(by['dup-b']).toContain('skill-duplicate');
    expect(by.gone).toEqual(['link-dangling']);
    expect(by.loop).toEqual(['link-cycle']);
    expect(by['group/nested']).toEqual(['skill-nested']);
    expect(by.good).toEqual([]);
    const n = all.skills.flatMap((s) => s.diagnostics);
    expect(all.summary).toEqual({
      skills: 6,
      errors: n.filter((d) => d.severity === 'error').length,
      warnings: n.filter((d) => d.severity === 'warning').length,
      infos: n.filter((d) => d.severity === 'info').length,
    });
    expect(all.summary.errors).toBeGreaterThanOrEqual(4); // 2 x name-dir-mismatch, dangling, cycle
  });

  it('reports skill-file-missing for a folder with no SKILL.md and refuses a missing path', async () => {
    const empty = path.join(sb.base, 'empty');
    fs.mkdirSync(empty);
    fs.writeFileSync(path.join(empty, 'notes.txt'), 'x');
    const r = await catalogFor(sb).lint([empty]);
    expect(r.skills[0].diagnostics.map((d) => d.code)).toEqual(['skill-file-missing']);
    expect(r.summary.errors).toBe(1);
    await expect(catalogFor(sb).lint([path.join(sb.base, 'nope')])).rejects.toMatchObject({ code: 'bad-request' });
  });
});

describe('service wiring', () => {
  it('answers the catalog methods through call() with contract-valid results', async () => {
    writeSkill(path.join(sb.paths.home, 'library', 'pdf'));
    const svc = new SkillDockService({ paths: sb.paths });
    try {
      const roots = await svc.call('listRoots', {});
      expect(roots.ok && (roots.value as { id: string }[])[0].id).toBe('builtin');
      const cat = await svc.call('listCatalog', {});
      expect(cat.ok && (cat.value as { entries: { id: string }[] }).entries.map((e) => e.id)).toEqual(['library/pdf']);
      const got = await svc.call('getSkill', { name: 'pdf' });
      expect(got.ok).toBe(true);
      const act = await svc.call('activateSkill', { name: 'pdf' });
      expect(act.ok && (act.value as { body: string }).body).toContain('# pdf');
      expect(await svc.call('getSkill', { name: 'zzz' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
      expect(await svc.call('lintPaths', { paths: [] })).toMatchObject({ ok: false, error: { code: 'bad-request' } });
      const view = await svc.call('agentView', { agent: 'claude' });
      expect(view.ok).toBe(true);
      const refreshed = await svc.call('refreshCatalog', {});
      expect(refreshed).toMatchObject({ ok: true, value: { added: [], changed: [], removed: [] } });
      const w = await svc.call('watchCatalog', {});
      expect(w.ok && (w.value as { watching: string[] }).watching).toContain(path.join(sb.paths.home, 'library'));
      expect(await svc.call('watchCatalog', { enabled: false })).toEqual({ ok: true, value: { watching: [] } });
    } finally {
      await svc.close();
    }
  });
});
