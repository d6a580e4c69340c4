import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeWorld, type World } from '../../test/support/library.js';

// Claude Code lists a skill whose SKILL.md has no frontmatter at all (by folder name, with its first
// body line); the other agents drop it. Import takes it under its folder name and says who loads it.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

function bare(dir: string, text: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  return dir;
}

it('imports a skill without frontmatter under its folder name, naming the agents that load it and those that drop it', async () => {
  const src = bare(path.join(w.src, 'plain-notes'), 'Keep plain notes in notes.md.\n\nMore text.\n');
  const out = await w.service.api.importPaths({ paths: [src] });
  expect(out.results).toHaveLength(1);
  const r = out.results[0]!;
  expect(r).toMatchObject({ status: 'imported', name: 'plain-notes', libraryName: 'plain-notes' });
  expect(r.msg).toEqual({
    key: 'import.no-frontmatter',
    params: { loaders: 'Claude Code', droppers: 'Gemini CLI, Codex, OpenCode, Qwen Code, GitHub Copilot' },
  });
  expect(r.message).toContain('Claude Code list it with its first body line');
  expect(r.diagnostics.map((d) => d.code)).toContain('frontmatter-missing');
  // Copied as it is: SkillDock does not invent frontmatter for it.
  expect(fs.readFileSync(path.join(w.home, 'library', 'plain-notes', 'SKILL.md'), 'utf8')).toBe(
    'Keep plain notes in notes.md.\n\nMore text.\n',
  );
  // In the catalog under its folder name, with the finding that tells the user to add frontmatter.
  const catalog = await w.service.api.listCatalog({});
  const entry = catalog.entries.find((e) => e.provenance.rootId === 'library' && e.dirName === 'plain-notes');
  expect(entry?.diagnostics.map((d) => d.code)).toContain('frontmatter-missing');
});

it('still refuses a skill whose frontmatter is there but has no usable name', async () => {
  const noName = bare(path.join(w.src, 'no-name'), '---\ndescription: Has no name.\n---\nBody.\n');
  const out = await w.service.api.importPaths({ paths: [noName] });
  expect(out.results.map((r) => [r.status, r.msg?.key])).toEqual([['refused', 'import.no-name']]);
  expect(fs.existsSync(path.join(w.home, 'library', 'no-name'))).toBe(false);
});
