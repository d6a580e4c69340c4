import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, type SkillDockService } from '../../src/service.js';

// Scaffolding for the security tests: real folders under the OS temp dir, never the real home.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const corpusDir = path.join(repoRoot, 'src', 'security', '__fixtures__', 'corpus');

export type FileSpec = string | Buffer | { text: string | Buffer; mode?: number };

export function tmpDir(prefix = 'sd-sec-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Write files (relative paths) under `dir`; returns `dir`. */
export function writeFiles(dir: string, files: Record<string, FileSpec>): string {
  for (const [rel, spec] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const body = typeof spec === 'string' || Buffer.isBuffer(spec) ? spec : spec.text;
    fs.writeFileSync(file, body);
    if (typeof spec === 'object' && !Buffer.isBuffer(spec) && spec.mode !== undefined) fs.chmodSync(file, spec.mode);
  }
  return dir;
}

/** A skill folder named `name` with a SKILL.md of `body` (frontmatter added) and extra files. */
export function writeSkill(parent: string, name: string, body: string, files: Record<string, FileSpec> = {}, frontmatter = ''): string {
  const dir = path.join(parent, name);
  writeFiles(dir, {
    'SKILL.md': `---\nname: ${name}\ndescription: Test skill ${name}.\n${frontmatter}---\n${body}`,
    ...files,
  });
  return dir;
}

export interface SecurityEnv {
  dir: string;
  home: string;
  userHome: string;
  resourcesDir: string;
  service: SkillDockService;
  cleanup(): Promise<void>;
}

/** A service on temp dirs with the real agent registry and no built-in skills. */
export function securityEnv(): SecurityEnv {
  const dir = tmpDir();
  const home = path.join(dir, 'skilldock');
  const userHome = path.join(dir, 'user');
  const resourcesDir = path.join(dir, 'resources');
  fs.mkdirSync(path.join(home, 'library'), { recursive: true });
  fs.mkdirSync(userHome, { recursive: true });
  fs.mkdirSync(path.join(resourcesDir, 'skills'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'resources', 'agents.json'), path.join(resourcesDir, 'agents.json'));
  const assistants = path.join(repoRoot, 'resources', 'assistants');
  if (fs.existsSync(assistants)) fs.cpSync(assistants, path.join(resourcesDir, 'assistants'), { recursive: true });
  const service = createService({ paths: { home, userHome, resourcesDir } });
  return {
    dir,
    home,
    userHome,
    resourcesDir,
    service,
    async cleanup() {
      await service.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
