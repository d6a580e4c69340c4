import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventBus, type EnginePaths } from '../../src/context.js';
import type { SkillDockEvent } from '../../src/contract/index.js';
import { createServiceContext, type ServiceContext } from '../../src/service-context.js';
import { analyzeSkill } from '../../src/skills/index.js';
import { CatalogService, type CatalogOptions } from '../../src/catalog/catalog.js';
import type { AnalyzeFn } from '../../src/catalog/entries.js';

// Shared by the catalog tests: temp homes, skill folders on disk, and a service wired to them.

export const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));

export interface Sandbox {
  base: string;
  paths: EnginePaths;
  ctx: ServiceContext;
  events: SkillDockEvent[];
  cleanup(): Promise<void>;
}

export function sandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-cat-')));
  const paths: EnginePaths = {
    home: path.join(base, 'sdhome'),
    userHome: path.join(base, 'home'),
    resourcesDir: path.join(base, 'resources'),
  };
  fs.mkdirSync(paths.userHome, { recursive: true });
  // Own resources dir: the shipped registry, but built-in skills under our control.
  fs.mkdirSync(path.join(paths.resourcesDir, 'skills'), { recursive: true });
  fs.copyFileSync(path.join(RESOURCES, 'agents.json'), path.join(paths.resourcesDir, 'agents.json'));
  const events: SkillDockEvent[] = [];
  const bus = new EventBus();
  bus.on((e) => events.push(e));
  const ctx = createServiceContext(paths, bus);
  return {
    base,
    paths,
    ctx,
    events,
    async cleanup() {
      await ctx.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

export function writeSkill(
  dir: string,
  opts: { name?: string | null; description?: string; body?: string; extra?: string; file?: string } = {},
): string {
  fs.mkdirSync(dir, { recursive: true });
  const name = opts.name === undefined ? path.basename(dir) : opts.name;
  const fm = [
    ...(name === null ? [] : [`name: ${name}`]),
    `description: ${JSON.stringify(opts.description ?? `Does ${path.basename(dir)} things. Use when asked.`)}`,
    ...(opts.extra ? [opts.extra] : []),
  ];
  const text = `---\n${fm.join('\n')}\n---\n${opts.body ?? `# ${path.basename(dir)}\n\nFollow the steps.\n`}`;
  fs.writeFileSync(path.join(dir, opts.file ?? 'SKILL.md'), text);
  return dir;
}

/** The real analyser, counting calls per folder (a spy, not a stand-in). */
export function countingAnalyze(): { analyze: AnalyzeFn; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    analyze: (dir, options) => {
      calls.push(dir);
      return analyzeSkill(dir, options);
    },
  };
}

export function catalogFor(sb: Sandbox, options: CatalogOptions = {}): CatalogService {
  return new CatalogService(sb.ctx, options);
}
