// The project's documents (docs/) ship with the code and stay true to it: every document a comment
// points at exists, nothing points outside the repo for them, and the facts the documents state as
// tables (the agent registry, the engine's domains, the npm scripts) match the code. The lint rule
// table is checked against src/skills/rules.ts in src/skills/analyze.test.ts.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const docsDir = path.join(root, 'docs');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function files(dir: string, out: string[] = []): string[] {
  for (const ent of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (ent.name === 'node_modules' || ent.name.startsWith('.') || ent.name === 'fixtures' || ent.name === '__fixtures__') continue;
    const rel = `${dir}/${ent.name}`;
    if (ent.isDirectory()) files(rel, out);
    else if (/\.(ts|tsx|mts|mjs|js|json|md)$/.test(ent.name)) out.push(rel);
  }
  return out;
}

const SOURCES = ['src', 'main', 'renderer/src', 'test', 'e2e', 'scripts', 'bench'].flatMap((d) => files(d));

/** Comment text of a source file (line and block comments), where references to documents live. */
function comments(text: string): string {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?:^|[^:'"`\w])\/\/.*$/gm)].map((m) => m[0]).join('\n');
}

/** `(docs/)name.md` named as one of the project's documents. */
const DOC_REF = /\bdocs\/([a-z][a-z-]*)\.md\b/g;

describe('project documents', () => {
  it('docs/ holds the documents the code refers to, and every reference resolves', () => {
    const referenced = new Map<string, string[]>();
    for (const rel of SOURCES) {
      const text = /\.(json|md)$/.test(rel) ? read(rel) : comments(read(rel));
      for (const m of text.matchAll(DOC_REF)) referenced.set(m[1], [...(referenced.get(m[1]) ?? []), rel]);
    }
    for (const m of read('README.md').matchAll(DOC_REF)) referenced.set(m[1], [...(referenced.get(m[1]) ?? []), 'README.md']);
    for (const m of read('resources/agents.json').matchAll(DOC_REF)) referenced.set(m[1], [...(referenced.get(m[1]) ?? []), 'agents.json']);
    // The code's comments do point at the documents (the check below is not vacuous).
    expect([...referenced.keys()].sort()).toEqual(expect.arrayContaining(['agents', 'architecture', 'lint-rules', 'toolchain']));
    for (const [name, where] of referenced)
      expect(fs.existsSync(path.join(docsDir, `${name}.md`)), `docs/${name}.md (named in ${where.join(', ')})`).toBe(true);
  });

  it('nothing points at documents outside the repository', () => {
    const outside = /shared\/docs\//;
    const offenders = [...SOURCES, 'README.md', 'resources/agents.json', ...files('docs')].filter((rel) => outside.test(read(rel)));
    expect(offenders).toEqual([]);
  });

  it('links between the documents resolve', () => {
    for (const rel of files('docs').filter((f) => f.endsWith('.md'))) {
      for (const m of read(rel).matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)) {
        expect(fs.existsSync(path.resolve(path.dirname(path.join(root, rel)), m[1])), `${rel} -> ${m[1]}`).toBe(true);
      }
    }
  });

  it('agents.md states the registry as it is in resources/agents.json', () => {
    interface Agent {
      id: string;
      name: string;
      testedVersion: string | null;
      evidence: string;
      projectDirs: string[];
      userDirs: string[];
      nativeSkillsDir: string;
      contextFile: string;
    }
    const registry = JSON.parse(read('resources/agents.json')) as { agents: Agent[] };
    const list = (l: string[]) => (l.length ? l.map((d) => `\`${d}\``).join(', ') : '–');
    const expected = registry.agents.map(
      (a) =>
        `| \`${a.id}\` | ${a.name} | ${a.testedVersion ?? '–'} | ${a.evidence} | ${list(a.projectDirs)} | ${list(a.userDirs)} | \`${a.nativeSkillsDir}\` | \`${a.contextFile}\` |`,
    );
    const doc = read('docs/agents.md');
    const section = doc.slice(doc.indexOf('## The registry'), doc.indexOf('\n## ', doc.indexOf('## The registry') + 1));
    const rows = section.split('\n').filter((l) => /^\| `[a-z0-9-]+` \|/.test(l));
    expect(rows).toEqual(expected);
  });

  it('architecture.md names every engine domain in src/, and only those', () => {
    const domains = fs
      .readdirSync(path.join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'contract')
      .map((e) => `${e.name}/`)
      .sort();
    const doc = read('docs/architecture.md');
    const section = doc.slice(doc.indexOf('## The engine'), doc.indexOf('\n## ', doc.indexOf('## The engine') + 1));
    const named = [...section.matchAll(/^\| `([a-z-]+\/)` \|/gm)].map((m) => m[1]).sort();
    expect(named).toEqual(domains);
  });

  it('toolchain.md explains every npm script', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const doc = read('docs/toolchain.md');
    const quoted = [...doc.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    for (const s of scripts) {
      const word = new RegExp(`(^|[\\s:])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|\\s)`);
      expect(
        quoted.some((q) => word.test(q)),
        `npm script "${s}"`,
      ).toBe(true);
    }
  });
});
