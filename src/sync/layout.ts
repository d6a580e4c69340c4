import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type { ServiceContext } from '../service-context.js';
import { libraryDir } from '../library/trash.js';
import { readProvenance } from '../sources/store.js';
import { getAssistants } from '../assistants/service.js';
import { getSecurity } from '../security/security-service.js';
import { getSettings } from '../settings/settings.js';
import { unsafeFolderName } from '../library/analyze.js';

// The documented layout of the sync repository (README "Sync"): what a user sees on GitHub.
//
//   SKILLDOCK-SYNC.json        marks the repository as SkillDock's ({"format":"skilldock-sync","version":1})
//   skills/<name>/...          each library skill's files, as the user has them
//   origins/<name>.json        where a skill came from (source, commit, path), for check and update
//   assistants/<id>.json       one file per assistant (the user's, not the starters)
//   approvals/<name>.json      an approval of a skill's scripts, pinned to its surface digest
//   settings.json              the settings that follow the user (language, theme, cleanup days)
//
// Never in it: skills-state/ (can hold secrets), caches, the catalog index, workspaces, logs, the
// journal, trash, machine-specific settings (extra roots, terminal, custom agents' commands, the
// script policy: trust stays per machine), a skill's `.git`, links, and what `.skilldockignore` names.

export const MARKER = 'SKILLDOCK-SYNC.json';
export const MARKER_TEXT = JSON.stringify({ format: 'skilldock-sync', version: 1 }, null, 2) + '\n';
/** A file larger than this is neither sent nor taken. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Settings that follow the user; the rest stay on each machine. */
export const SYNCED_SETTINGS = ['language', 'theme', 'workspaceCleanupDays'] as const;

/** A local file to send: from disk (a skill file) or made here (JSON). */
export type Wanted = Map<string, { file: string } | { text: string }>;

export const json = (v: unknown): string => JSON.stringify(v, null, 2) + '\n';

/** `<home>/.skilldockignore` plus a skill's own: gitignore syntax, relative to the skill folder. */
function ignoreFor(home: string, skillDir: string): (rel: string) => boolean {
  const ig = ignore();
  for (const f of [path.join(home, '.skilldockignore'), path.join(skillDir, '.skilldockignore')]) {
    try {
      ig.add(fs.readFileSync(f, 'utf8'));
    } catch {
      // none
    }
  }
  return (rel) => ig.ignores(rel);
}

/** A skill's files: real files only (no links, no `.git`, nothing ignored, nothing too large). */
function skillFiles(root: string, ignored: (rel: string) => boolean, skipped: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string, depth: number) => {
    if (depth > 32) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git' || e.name === '.skilldockignore') continue;
      if (e.isDirectory()) {
        if (!ignored(`${r}/`)) walk(path.join(dir, e.name), r, depth + 1);
      } else if (e.isFile() && !ignored(r)) {
        const abs = path.join(dir, e.name);
        if (fs.statSync(abs).size > MAX_FILE_BYTES) skipped.push(r);
        else out.push(r);
      } else if (!e.isFile() && !e.isDirectory()) skipped.push(r); // a link: its target is not the user's to send
    }
  };
  walk(root, '', 0);
  return out;
}

/** What this machine has, in the repository's layout. */
export function localTree(ctx: ServiceContext): { wanted: Wanted; skipped: string[] } {
  const wanted: Wanted = new Map([[MARKER, { text: MARKER_TEXT }]]);
  const skipped: string[] = [];
  const lib = libraryDir(ctx);
  const names = fs.existsSync(lib) ? fs.readdirSync(lib, { withFileTypes: true }) : [];
  for (const e of names) {
    if (e.name.startsWith('.') || unsafeFolderName(e.name)) continue;
    // a skill adopted by link lives elsewhere: only real folders are the library's own
    if (!e.isDirectory()) {
      if (e.isSymbolicLink()) skipped.push(`skills/${e.name}`);
      continue;
    }
    const dir = path.join(lib, e.name);
    for (const rel of skillFiles(dir, ignoreFor(ctx.paths.home, dir), skipped))
      wanted.set(`skills/${e.name}/${rel}`, { file: path.join(dir, ...rel.split('/')) });
  }
  for (const [name, origin] of Object.entries(readProvenance(ctx))) {
    if (wanted.has(`skills/${name}/SKILL.md`)) wanted.set(`origins/${name}.json`, { text: json(origin) });
  }
  for (const a of getAssistants(ctx).store.read().assistants) wanted.set(`assistants/${a.id}.json`, { text: json(a) });
  for (const a of getSecurity(ctx).list()) {
    if (!unsafeFolderName(a.name)) wanted.set(`approvals/${a.name}.json`, { text: json(a) });
  }
  const s = getSettings(ctx).get() as Record<string, unknown>;
  wanted.set('settings.json', { text: json(Object.fromEntries(SYNCED_SETTINGS.map((k) => [k, s[k]]))) });
  return { wanted, skipped };
}

/** The unit a repository path belongs to: a skill, an assistant, an approval, settings, the marker. */
export function unitOf(p: string): string {
  const parts = p.split('/');
  if (parts[0] === 'skills' && parts.length > 2) return `skill:${parts[1]}`;
  return p;
}

/**
 * Why a remote path is refused (null: fine). A hostile tree is refused whole, before anything of it
 * is written: links, submodules, `..`, absolute or empty segments, `.git` anywhere, names the library
 * would not take, files over the limit, anything outside the layout.
 */
export function hostilePath(p: string, mode: string, size: number): string | null {
  if (mode === '120000') return 'link';
  if (mode === '160000') return 'submodule';
  if (mode !== '100644' && mode !== '100755') return 'mode';
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git' || s.includes('\\'))) return 'path';
  if (size > MAX_FILE_BYTES) return 'size';
  if (p === MARKER || p === 'settings.json' || p === 'README.md') return null;
  const [top, name] = parts;
  if (top === 'skills' && parts.length > 2 && !unsafeFolderName(name!)) return null;
  if ((top === 'origins' || top === 'approvals' || top === 'assistants') && parts.length === 2 && name!.endsWith('.json')) {
    return unsafeFolderName(name!.slice(0, -5)) ? 'path' : null;
  }
  return 'layout';
}
