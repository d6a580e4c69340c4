import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createService, type SkillDockService } from '../../src/service.js';

// Test scaffolding for the assistants tests: real dirs under the OS temp dir, never the real home.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const realResources = path.join(repoRoot, 'resources');
/** `--import` value that loads tsx from this repo, whatever the child's cwd. */
export const tsxImport = pathToFileURL(createRequire(path.join(repoRoot, 'package.json')).resolve('tsx')).href;

export interface TestEnv {
  dir: string;
  home: string;
  userHome: string;
  resourcesDir: string;
  service(): SkillDockService;
  /** Env for a child process that must see only this environment. */
  childEnv(): NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/**
 * A temp home, user home and resources dir. The resources dir holds the real agent registry and
 * starters, and its own built-in skills (so tests control them) unless `realBuiltins` is set.
 */
export function makeEnv(opts: { realBuiltins?: boolean } = {}): TestEnv {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-ast-')));
  const home = path.join(dir, 'skilldock');
  const userHome = path.join(dir, 'user');
  const resourcesDir = path.join(dir, 'resources');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(userHome, { recursive: true });
  fs.mkdirSync(path.join(resourcesDir, 'skills'), { recursive: true });
  fs.copyFileSync(path.join(realResources, 'agents.json'), path.join(resourcesDir, 'agents.json'));
  fs.cpSync(path.join(realResources, 'assistants'), path.join(resourcesDir, 'assistants'), { recursive: true });
  if (opts.realBuiltins) fs.cpSync(path.join(realResources, 'skills'), path.join(resourcesDir, 'skills'), { recursive: true });
  const services: SkillDockService[] = [];
  return {
    dir,
    home,
    userHome,
    resourcesDir,
    service() {
      const s = createService({ paths: { home, userHome, resourcesDir } });
      services.push(s);
      return s;
    },
    childEnv() {
      return {
        ...process.env,
        HOME: userHome,
        SKILLDOCK_HOME: home,
        SKILLDOCK_USER_HOME: userHome,
        SKILLDOCK_RESOURCES: resourcesDir,
        NO_COLOR: '1',
      };
    },
    async cleanup() {
      for (const s of services) await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Bundle the CLI into `outDir` the way scripts/build-engine.mjs does, so child processes start in
 * a fraction of the time tsx needs to compile the sources on every run.
 */
export async function bundleCli(outDir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(outDir, 'cli.mjs');
  await build({
    entryPoints: [path.join(repoRoot, 'src/cli/entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

/** Write a minimal valid skill folder `<root>/<name>/SKILL.md`. */
export function writeSkill(root: string, name: string, description = `Use ${name} for tests.`, extra = ''): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps.\n${extra}`);
  return dir;
}
