import type { Diagnostic, MessageRef } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { analyzeSkill } from '../skills/index.js';

// What the library needs to know about a skill folder, from the skills module's analysis.

export interface SkillFacts {
  /** Frontmatter `name` when it is a usable string; null when the name cannot be determined. */
  name: string | null;
  digest: string;
  description?: string;
  diagnostics: Diagnostic[];
  size: number;
  fileCount: number;
}

export async function skillFacts(ctx: ServiceContext, dir: string, dirName?: string): Promise<SkillFacts> {
  const a = await analyzeSkill(dir, { resourcesDir: ctx.paths.resourcesDir, dirName, digest: true });
  const name = typeof a.name === 'string' && a.name.trim() !== '' ? a.name : null;
  return {
    name,
    digest: a.digest,
    description: typeof a.description === 'string' ? a.description : undefined,
    diagnostics: a.diagnostics,
    size: a.size,
    fileCount: a.fileCount,
  };
}

/** A name that is safe as one folder name under `library/` (the lint rules judge the rest). */
export function unsafeFolderName(name: string): MessageRef | undefined {
  if (name === '.' || name === '..') return { key: 'import.folder-name.dots' };
  if (/[/\\\0]/.test(name)) return { key: 'import.folder-name.slash' };
  if (name.startsWith('.')) return { key: 'import.folder-name.dot' };
  if (Buffer.byteLength(name) > 200) return { key: 'import.folder-name.long' };
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(name)) return { key: 'import.folder-name.control' };
  return undefined;
}
