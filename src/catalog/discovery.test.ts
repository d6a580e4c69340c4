import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSettings } from '../settings/settings.js';
import { catalogFor, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const lib = () => path.join(sb.paths.home, 'library');
const user = (rel: string) => path.join(sb.paths.userHome, rel);
const codes = (diags: { code: string }[]) => diags.map((d) => d.code);

describe('roots', () => {
  it('lists roots in precedence order with agents from the registry', () => {
    const roots = catalogFor(sb).roots({ project: path.join(sb.base, 'proj') });
    const ids = roots.map((r) => r.id);
    expect(ids.slice(0, 2)).toEqual(['builtin', 'library']);
    // user roots: the most widely read first, then registry order
    expect(ids.filter((i) => i.startsWith('user:')).slice(0, 5)).toEqual([
      'user:.agents/skills',
      'user:.claude/skills',
      'user:.gemini/skills',
      'user:.codex/skills',
      'user:/etc/codex/skills',
    ]);
    expect(ids).toContain('user:.config/opencode/skills');
    expect(ids).toContain('user:.qwen/skills');
    const projectIds = ids.filter((i) => i.startsWith('project:'));
    expect(projectIds[0]).toBe('project:.agents/skills');
    expect(projectIds).toEqual(
      expect.arrayContaining([
        'project:.claude/skills',
        'project:.gemini/skills',
        'project:.codex/skills',
        'project:.opencode/skills',
        'project:.qwen/skills',
      ]),
    );
    expect(ids.indexOf('user:.qwen/skills')).toBeLessThan(ids.indexOf('project:.agents/skills'));
    const agentsRoot = roots.find((r) => r.id === 'user:.agents/skills')!;
    expect(agentsRoot.path).toBe(user('.agents/skills'));
    expect(agentsRoot.agents).toEqual(expect.arrayContaining(['gemini', 'codex', 'opencode', 'qwen']));
    expect(agentsRoot.agents).not.toContain('claude');
    expect(roots.find((r) => r.id === 'user:.claude/skills')!.agents).toEqual(['claude', 'opencode']);
    expect(roots.map((r) => r.precedence)).toEqual(roots.map((_, i) => i));
    expect(roots.every((r) => path.isAbsolute(r.path))).toBe(true);
  });

  it('adds extra roots from settings then from the query, keyed by path', () => {
    const a = path.join(sb.base, 'extra-a');
    const b = path.join(sb.base, 'extra-b');
    fs.mkdirSync(a);
    getSettings(sb.ctx).update({ extraRoots: [a] });
    const roots = catalogFor(sb).roots({ roots: [b] });
    const extras = roots.filter((r) => r.kind === 'extra');
    expect(extras.map((r) => [r.id, r.exists])).toEqual([
      [`extra:${a}`, true],
      [`extra:${b}`, false],
    ]);
    expect(roots[roots.length - 1].path).toBe(b);
  });

  it('keeps one root per folder when the project is the home dir', () => {
    const roots = catalogFor(sb).roots({ project: sb.paths.userHome });
    const claude = roots.filter((r) => r.path === user('.claude/skills'));
    expect(claude).toHaveLength(1);
    expect(claude[0].id).toBe('user:.claude/skills');
    expect(new Set(roots.map((r) => r.path)).size).toBe(roots.length);
  });
});

describe('discovery', () => {
  it('finds direct children with a SKILL.md, treats missing roots as empty, ignores files and plain folders', async () => {
    writeSkill(path.join(lib(), 'alpha'));
    writeSkill(path.join(lib(), 'beta'));
    fs.writeFileSync(path.join(lib(), 'README.md'), 'not a skill');
    fs.mkdirSync(path.join(lib(), 'empty-folder'));
    const cat = await catalogFor(sb).list();
    expect(cat.entries.map((e) => e.id)).toEqual(['library/alpha', 'library/beta']);
    expect(cat.roots.find((r) => r.id === 'library')!.exists).toBe(true);
    expect(cat.roots.find((r) => r.id === 'user:.claude/skills')!.exists).toBe(false);
    expect(cat.rootDiagnostics).toEqual([]);
    const e = cat.entries[0];
    expect(e.provenance).toEqual({
      rootId: 'library',
      rootKind: 'library',
      rootPath: lib(),
      dir: path.join(lib(), 'alpha'),
      realPath: path.join(lib(), 'alpha'),
      linked: false,
    });
    expect(e.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(e.fileCount).toBe(1);
    expect(e.size).toBeGreaterThan(0);
    expect(e.description).toContain('alpha');
    expect(e.counts).toEqual({ errors: 0, warnings: 0, infos: 0 });
    expect(e).not.toHaveProperty('body');
  });

  it('keeps broken skills in the catalog and never stops at one', async () => {
    writeSkill(path.join(lib(), 'a-good'));
    fs.mkdirSync(path.join(lib(), 'b-bad-yaml'));
    fs.writeFileSync(path.join(lib(), 'b-bad-yaml', 'SKILL.md'), '---\nname: b-bad-yaml\ndescription: [unclosed\n---\nbody\n');
    fs.mkdirSync(path.join(lib(), 'c-no-frontmatter'));
    fs.writeFileSync(path.join(lib(), 'c-no-frontmatter', 'SKILL.md'), '# just markdown\n');
    writeSkill(path.join(lib(), 'd-lower'), { file: 'skill.md' });
    writeSkill(path.join(lib(), 'z-good'));
    const cat = await catalogFor(sb).list();
    expect(cat.entries.map((e) => e.dirName)).toEqual(['a-good', 'b-bad-yaml', 'c-no-frontmatter', 'd-lower', 'z-good']);
    const by = (n: string) => cat.entries.find((e) => e.dirName === n)!;
    expect(codes(by('b-bad-yaml').diagnostics)).toContain('frontmatter-yaml');
    expect(by('b-bad-yaml').counts.errors).toBeGreaterThan(0);
    expect(codes(by('c-no-frontmatter').diagnostics)).toContain('frontmatter-missing');
    expect(by('c-no-frontmatter').name).toBe('c-no-frontmatter'); // no usable name: the folder name
    expect(codes(by('d-lower').diagnostics)).toContain('skill-file-case');
    expect(by('z-good').counts.errors).toBe(0);
  });

  it('reports a skill two levels below a root as skill-nested, not as an entry', async () => {
    writeSkill(path.join(lib(), 'group', 'inner'));
    const cat = await catalogFor(sb).list();
    expect(cat.entries).toEqual([]);
    expect(cat.rootDiagnostics).toHaveLength(1);
    const d = cat.rootDiagnostics[0];
    expect(d.code).toBe('skill-nested');
    expect(d.file).toBe(path.join(lib(), 'group', 'inner', 'SKILL.md'));
    // claude, gemini and qwen only read direct children; codex and opencode search deeper
    expect(d.agents).toEqual(expect.arrayContaining(['claude', 'gemini', 'qwen']));
    expect(d.agents).not.toContain('codex');
    expect(d.agents).not.toContain('opencode');
  });

  it('flags dot-dirs and keeps them as entries', async () => {
    writeSkill(path.join(user('.claude/skills'), '.hidden'), { name: 'hidden' });
    const cat = await catalogFor(sb).list();
    const e = cat.entries.find((x) => x.dirName === '.hidden')!;
    const d = e.diagnostics.find((x) => x.code === 'skill-dot-dir')!;
    expect(d.agents).toEqual(expect.arrayContaining(['gemini', 'codex']));
  });

  it('follows a linked skill folder and records the link and the real path', async () => {
    const real = writeSkill(path.join(sb.base, 'elsewhere', 'linked-skill'));
    fs.mkdirSync(lib(), { recursive: true });
    fs.symlinkSync(real, path.join(lib(), 'linked-skill'));
    const cat = await catalogFor(sb).list();
    const e = cat.entries.find((x) => x.name === 'linked-skill')!;
    expect(e.provenance).toMatchObject({ dir: path.join(lib(), 'linked-skill'), realPath: real, linked: true, linkTarget: real });
    expect(e.counts.errors).toBe(0);
  });

  it('turns a dangling link into link-dangling and a loop into link-cycle, scanning the rest', async () => {
    writeSkill(path.join(lib(), 'fine'));
    fs.symlinkSync(path.join(sb.base, 'gone'), path.join(lib(), 'dangling'));
    fs.symlinkSync(lib(), path.join(lib(), 'to-root'));
    fs.symlinkSync(sb.base, path.join(lib(), 'to-ancestor'));
    fs.symlinkSync(path.join(lib(), 'ping'), path.join(lib(), 'pong'));
    fs.symlinkSync(path.join(lib(), 'pong'), path.join(lib(), 'ping'));
    const cat = await catalogFor(sb).list();
    expect(cat.entries.map((e) => e.dirName)).toEqual(['fine']);
    const found = cat.rootDiagnostics.map((d) => [path.basename(d.file), d.code, d.severity]);
    expect(found).toEqual([
      ['dangling', 'link-dangling', 'error'],
      ['ping', 'link-cycle', 'error'],
      ['pong', 'link-cycle', 'error'],
      ['to-ancestor', 'link-cycle', 'error'],
      ['to-root', 'link-cycle', 'error'],
    ]);
  });
});

describe('precedence', () => {
  it('lets the first root win and keeps the others as shadowed, naming the winner', async () => {
    writeSkill(path.join(lib(), 'pdf'), { description: 'library copy' });
    writeSkill(path.join(user('.claude/skills'), 'pdf'), { description: 'claude copy' });
    writeSkill(path.join(user('.agents/skills'), 'pdf'), { description: 'agents copy' });
    const svc = catalogFor(sb);
    const cat = await svc.list();
    const pdfs = cat.entries.filter((e) => e.name === 'pdf');
    expect(pdfs.map((e) => e.id)).toEqual(['library/pdf', 'user:.agents/skills/pdf', 'user:.claude/skills/pdf']);
    const [win, ...losers] = pdfs;
    expect(win.shadowedBy).toBeUndefined();
    expect(win.shadows).toEqual(['user:.agents/skills/pdf', 'user:.claude/skills/pdf']);
    expect(codes(win.diagnostics)).not.toContain('skill-shadowed');
    for (const l of losers) {
      expect(l.shadowedBy).toBe('library/pdf');
      const d = l.diagnostics.find((x) => x.code === 'skill-shadowed')!;
      expect(d.message).toContain('library/pdf');
      expect(d.severity).toBe('warning');
      expect(l.counts.warnings).toBeGreaterThanOrEqual(1);
    }
    expect((await svc.get('pdf')).description).toBe('library copy');
    expect((await svc.get('user:.claude/skills/pdf')).description).toBe('claude copy');
  });

  // Issue 23 item 8: adopting from ~/.claude/skills gave the agent's copy a skill-shadowed warning
  // ("rename one or remove the copy") about the library entry that is that very skill.
  it('does not warn an adopted skill about itself: a link to the same folder, or a copy with the same content', async () => {
    writeSkill(path.join(user('.claude/skills'), 'linked'), { description: 'adopted by link' });
    fs.mkdirSync(lib(), { recursive: true });
    fs.symlinkSync(path.join(user('.claude/skills'), 'linked'), path.join(lib(), 'linked'));
    writeSkill(path.join(user('.claude/skills'), 'copied'), { description: 'adopted by copy' });
    fs.cpSync(path.join(user('.claude/skills'), 'copied'), path.join(lib(), 'copied'), { recursive: true });
    const svc = catalogFor(sb);
    for (const name of ['linked', 'copied']) {
      const agentCopy = (await svc.list()).entries.find((e) => e.id === `user:.claude/skills/${name}`)!;
      expect(agentCopy.shadowedBy).toBe(`library/${name}`);
      expect(codes(agentCopy.diagnostics), name).not.toContain('skill-shadowed');
      expect(agentCopy.counts.warnings, name).toBe(0);
    }
    // Edited in the library, the copy is another skill now: the agent's folder holds a rival again.
    fs.appendFileSync(path.join(lib(), 'copied', 'SKILL.md'), '\nEdited in the library.\n');
    const after = await catalogFor(sb).list();
    const agentCopy = after.entries.find((e) => e.id === 'user:.claude/skills/copied')!;
    expect(codes(agentCopy.diagnostics)).toContain('skill-shadowed');
  });

  it('marks the same name twice in one root as skill-duplicate on both', async () => {
    writeSkill(path.join(lib(), 'one'), { name: 'same' });
    writeSkill(path.join(lib(), 'two'), { name: 'same' });
    const cat = await catalogFor(sb).list();
    const [a, b] = cat.entries;
    expect(codes(a.diagnostics)).toContain('skill-duplicate');
    expect(codes(b.diagnostics)).toContain('skill-duplicate');
    expect(codes(b.diagnostics)).not.toContain('skill-shadowed');
    expect(a.diagnostics.find((d) => d.code === 'skill-duplicate')!.message).toContain('two');
    expect(b.shadowedBy).toBe('library/one');
    expect(a.diagnostics.find((d) => d.code === 'skill-duplicate')!.agents).toEqual(expect.arrayContaining(['codex', 'opencode']));
  });

  it('puts project roots after user roots and extra roots last', async () => {
    const proj = path.join(sb.base, 'proj');
    const extra = path.join(sb.base, 'extra');
    writeSkill(path.join(proj, '.claude/skills', 'tool'), { description: 'project' });
    writeSkill(path.join(extra, 'tool'), { description: 'extra' });
    writeSkill(path.join(extra, 'only-extra'));
    const svc = catalogFor(sb);
    expect((await svc.get('tool', { project: proj, roots: [extra] })).description).toBe('project');
    writeSkill(path.join(user('.qwen/skills'), 'tool'), { description: 'user' });
    expect((await svc.get('tool', { project: proj, roots: [extra] })).description).toBe('user');
    expect((await svc.get('only-extra', { roots: [extra] })).provenance.rootId).toBe(`extra:${extra}`);
    await expect(svc.get('only-extra')).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('determinism', () => {
  it('gives identical output for identical input, whatever the creation order', async () => {
    const make = (root: string, names: string[]) => {
      for (const n of names) writeSkill(path.join(root, n), { body: `# ${n}\n\nSee [x](references/x.md).\n` });
    };
    const names = ['b', 'a', 'C', 'ä-umlaut', '_under', 'a-b', '0-num'];
    make(lib(), names);
    const first = JSON.stringify(await catalogFor(sb).list());
    // a second tree with the same content created in reverse order
    const sb2 = sandbox();
    try {
      make(path.join(sb2.paths.home, 'library'), [...names].reverse());
      const second = JSON.stringify(await catalogFor(sb2).list())
        .split(sb2.base)
        .join(sb.base);
      expect(second).toBe(first);
      const again = JSON.stringify(await catalogFor(sb).list());
      expect(again).toBe(first);
    } finally {
      await sb2.cleanup();
    }
    const order = JSON.parse(first).entries.map((e: { dirName: string }) => e.dirName);
    expect(order).toEqual(['0-num', 'C', '_under', 'a', 'a-b', 'b', 'ä-umlaut']);
  });
});

describe('activation', () => {
  it('returns the body, the absolute dir and the sorted resource files', async () => {
    const dir = writeSkill(path.join(lib(), 'pdf'), { body: '# PDF\n\nRun [the script](scripts/run.sh).\n' });
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.mkdirSync(path.join(dir, 'references'));
    fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'references', 'forms.md'), '# forms\n');
    const a = await catalogFor(sb).activate('pdf');
    expect(a.body).toBe('# PDF\n\nRun [the script](scripts/run.sh).\n');
    expect(a.dir).toBe(dir);
    expect(path.isAbsolute(a.dir)).toBe(true);
    expect(a.files).toEqual(['references/forms.md', 'scripts/run.sh']);
    expect(a.entry.id).toBe('library/pdf');
  });

  it('refreshes the entry when the folder changed since the scan', async () => {
    const dir = writeSkill(path.join(lib(), 'pdf'), { description: 'old' });
    const svc = catalogFor(sb);
    await svc.list();
    writeSkill(dir, { description: 'new and longer' });
    const a = await svc.activate('pdf');
    expect(a.entry.description).toBe('new and longer');
    expect((await svc.get('pdf')).description).toBe('new and longer');
  });

  it('fails with not-found for an unknown name', async () => {
    await expect(catalogFor(sb).activate('nope')).rejects.toMatchObject({ code: 'not-found' });
  });
});
