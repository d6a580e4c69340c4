import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { CatalogEntry } from '../../src/contract/index.js';
import { analyzeSkill } from '../../src/skills/index.js';
import { findAgent, type AgentDef } from '../../src/agents/registry.js';
import type { LaunchSkill } from '../../src/workspaces/launch.js';

// Test scaffolding for workspaces: real folders under the OS temp dir; catalog entries come from
// the real skill analyzer (the same one the catalog uses), never hand-made.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const resources = path.join(repoRoot, 'resources');
export const cliScript = path.join(repoRoot, 'bin', 'skilldock.js');

export interface Sandbox {
  dir: string;
  home: string;
  userHome: string;
  lib: string;
  done(): void;
}

export function sandbox(): Sandbox {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-ws-')));
  const home = path.join(dir, 'skilldock');
  const userHome = path.join(dir, 'user');
  const lib = path.join(home, 'library');
  for (const d of [home, userHome, lib]) fs.mkdirSync(d, { recursive: true });
  return { dir, home, userHome, lib, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface SkillSpec {
  description?: string;
  body?: string;
  version?: string;
  files?: Record<string, string>;
}

export function writeSkill(root: string, name: string, spec: SkillSpec = {}): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const meta = spec.version ? `metadata:\n  version: "${spec.version}"\n` : '';
  const description = spec.description ?? `Use ${name} when testing workspaces.`;
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n${meta}---\n\n# ${name}\n\n${spec.body ?? 'Steps.'}\n`,
  );
  for (const [rel, text] of Object.entries(spec.files ?? {})) {
    const f = path.join(dir, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text, { mode: rel.endsWith('.sh') ? 0o755 : 0o644 });
  }
  return dir;
}

/** A catalog entry for a skill folder, from the real analyzer. */
export async function entryOf(dir: string, rootId = 'library'): Promise<CatalogEntry> {
  const a = await analyzeSkill(dir, { resourcesDir: resources });
  const realPath = fs.realpathSync(dir);
  return {
    id: `${rootId}/${a.dirName}`,
    name: a.name ?? a.dirName,
    dirName: a.dirName,
    description: a.description ?? '',
    frontmatter: a.frontmatter,
    provenance: {
      rootId,
      rootKind: 'library',
      rootPath: path.dirname(dir),
      dir,
      realPath,
      linked: realPath !== path.resolve(dir),
    },
    digest: a.digest || crypto.createHash('sha256').update(realPath).digest('hex'),
    diagnostics: a.diagnostics,
    counts: { errors: 0, warnings: 0, infos: 0 },
    shadows: [],
    stateId: a.stateId,
    legacyPaths: a.legacyPaths,
    size: a.size,
    fileCount: a.fileCount,
  };
}

export async function launchSkills(dirs: string[]): Promise<LaunchSkill[]> {
  return Promise.all(
    dirs.map(async (d) => {
      const entry = await entryOf(d);
      return { name: entry.name, missing: false, entry };
    }),
  );
}

export function agent(id: string): AgentDef {
  const a = findAgent(resources, id);
  if (!a) throw new Error(`no agent ${id}`);
  return a;
}

/** sha256 over every path, type, link target and file content under `root` (links not followed). */
export function treeHash(root: string): string {
  const h = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      const st = fs.lstatSync(p);
      const rel = path.relative(root, p);
      if (st.isSymbolicLink()) h.update(`L ${rel} ${fs.readlinkSync(p)}\n`);
      else if (st.isDirectory()) {
        h.update(`D ${rel} ${st.mode} ${st.mtimeMs}\n`);
        walk(p);
      } else h.update(`F ${rel} ${st.mode} ${st.size} ${st.mtimeMs}\n`).update(fs.readFileSync(p));
    }
  };
  h.update(`R ${fs.statSync(root).mtimeMs}\n`);
  walk(root);
  return h.digest('hex');
}
