import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  CatalogsFileSchema,
  IndexedSkillWithBodySchema,
  MessageRefSchema,
  type SkillCatalog,
  type CatalogsFile,
  type IndexedSkillWithBody,
  type MessageRef,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { openStore, type JsonStore } from '../store/index.js';
import { randomHex } from '../store/lazy-crypto.js';
import { SkillSearch, skillShapeOk } from './search.js';

// What the discover domain keeps on disk, under `<home>/catalogs/`:
//   catalogs.json            the user's subscriptions (a JsonStore: versioned, validated, locked)
//   <id>/index.json          the index of one catalog (a cache: rebuilt by a refresh when unreadable)
//   <id>/repo/               a git catalog's mirror (fetched, never cloned anew)
//   <id>/files/<name>/       a well-known catalog's skill files, as indexed (what install takes)
//   search-index.json        the search index over every catalog's index (a cache: see search.ts)

/** Shipped subscriptions: Anthropic's skills repository and the official Claude plugin marketplace. */
export const DEFAULT_CATALOGS: SkillCatalog[] = [
  { id: 'anthropics-skills', kind: 'git', url: 'https://github.com/anthropics/skills', enabled: true, builtin: true },
  {
    id: 'claude-plugins-official',
    kind: 'marketplace',
    url: 'https://github.com/anthropics/claude-plugins-official',
    enabled: true,
    builtin: true,
  },
];

export function catalogsRoot(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'catalogs');
}

export function catalogDir(ctx: ServiceContext, id: string): string {
  return path.join(catalogsRoot(ctx), id);
}

export function catalogsStore(ctx: ServiceContext): JsonStore<CatalogsFile> {
  return ctx.use('discover-catalogs', () =>
    openStore<CatalogsFile>(ctx, path.join('catalogs', 'catalogs.json'), {
      schema: CatalogsFileSchema,
      version: 1,
      defaults: () => ({ catalogs: DEFAULT_CATALOGS.map((c) => ({ ...c })) }),
    }),
  );
}

export const CatalogIndexSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  url: z.string(),
  commit: z.string().optional(),
  refreshedAt: z.string(),
  /** Set when the last refresh failed (the skills are those of the refresh before). */
  error: MessageRefSchema.optional(),
  /** A well-known catalog's index folder URL (`<site>/.well-known/<agent-skills|skills>`). */
  wellKnown: z.string().optional(),
  /** A marketplace's other repositories: URL → commit indexed. */
  repos: z.record(z.string(), z.string()).optional(),
  skills: z.array(IndexedSkillWithBodySchema),
});
export type CatalogIndex = z.infer<typeof CatalogIndexSchema>;

export function indexFile(ctx: ServiceContext, id: string): string {
  return path.join(catalogDir(ctx, id), 'index.json');
}

/** The catalog's index, or null when there is none or it cannot be read (a refresh rebuilds it). */
export function readIndex(ctx: ServiceContext, id: string): CatalogIndex | null {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(indexFile(ctx, id), 'utf8'));
  } catch {
    return null;
  }
  // SkillDock's own cache, read at every refresh and search: checked for shape here (the full
  // schema cost more than the rest of a small refresh); a bad file reads as none and is rebuilt.
  const d = data as Partial<CatalogIndex> | null;
  if (!d || d.version !== 1 || d.id !== id || typeof d.refreshedAt !== 'string' || !Array.isArray(d.skills)) return null;
  const ok = (s: Partial<IndexedSkillWithBody> | null) => skillShapeOk(s) && typeof s!.body === 'string';
  return d.skills.every(ok) ? (d as CatalogIndex) : null;
}

/**
 * Write an index: temp file and rename, without fsync. The index is a cache of what the catalog
 * offers, so a torn write after a power loss costs one refresh, and a refresh stays cheap.
 */
export function writeIndex(ctx: ServiceContext, index: CatalogIndex): void {
  writeCache(indexFile(ctx, index.id), JSON.stringify(index));
}

/** Temp file and rename: a reader sees the old file or the new one, never half of one. */
function writeCache(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomHex(4)}`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Which generation of a catalog's index file is on disk: every write renames a new file in (a new
 * inode), so inode, time and size tell one write from the next without reading 50 MB of JSON.
 */
export function indexStamp(ctx: ServiceContext, id: string): string {
  try {
    const st = fs.statSync(indexFile(ctx, id), { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.size}`;
  } catch {
    return 'missing';
  }
}

export function searchIndexFile(ctx: ServiceContext): string {
  return path.join(catalogsRoot(ctx), 'search-index.json');
}

/** The saved search index, or null when there is none or it is not one this version can use. */
export function readSavedSearch(ctx: ServiceContext): SkillSearch | null {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(searchIndexFile(ctx), 'utf8'));
  } catch {
    return null;
  }
  return SkillSearch.fromSaved(data);
}

/** Save the search index; a failure (a full disk) costs the next process a rebuild, not this search. */
export function saveSearch(ctx: ServiceContext, search: SkillSearch): void {
  try {
    writeCache(searchIndexFile(ctx), JSON.stringify(search));
  } catch {
    // a cache: searching goes on from memory
  }
}

export function dropSavedSearch(ctx: ServiceContext): void {
  fs.rmSync(searchIndexFile(ctx), { force: true });
}

/** Record a failed refresh on the index, keeping the skills indexed before. */
export function markFailed(ctx: ServiceContext, c: SkillCatalog, error: MessageRef): void {
  const old = readIndex(ctx, c.id);
  writeIndex(ctx, { ...(old ?? { version: 1, id: c.id, url: c.url, skills: [] }), refreshedAt: new Date().toISOString(), error });
}

interface WebInstall {
  catalog: string;
  path: string;
  digest: string;
}

function webInstallsFile(ctx: ServiceContext): string {
  return path.join(catalogsRoot(ctx), 'installed.json');
}

/**
 * Library name → the web catalog skill it was installed from: written by installs before well-known
 * skills got provenance (sources), still read so those show as installed.
 */
export function readWebInstalls(ctx: ServiceContext): Record<string, WebInstall> {
  try {
    const data = JSON.parse(fs.readFileSync(webInstallsFile(ctx), 'utf8')) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, WebInstall>) : {};
  } catch {
    return {};
  }
}
