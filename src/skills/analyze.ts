import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import type { Diagnostic, LegacyPath } from '../contract/index.js';
import { loadRegistry, type Registry } from '../agents/registry.js';
import { stateIdFor } from '../state/state-id.js';
import { makeDiagnostic, type DiagnosticInit } from './rules.js';
import { parseSkillText, countNewlines, detachString } from './parse.js';
import { lintFields } from './lint-fields.js';
import { findReferences, findHomePaths, type BodyRef } from './body-scan.js';
import {
  MAX_TREE_DEPTH,
  walkSkill,
  digestSkill,
  readLinkedSkillFile,
  type Listed,
  type SkillFile,
  type WalkOptions,
  type WalkResult,
} from './walk.js';

export interface SkillAnalysis {
  dir: string;
  dirName: string;
  name: string | null;
  description: string | null;
  frontmatter: Record<string, unknown> | null;
  body: string;
  bodyLine: number;
  diagnostics: Diagnostic[];
  legacyPaths: LegacyPath[];
  version: string | null;
  stateId: string | null;
  files: SkillFile[];
  /** sha256 hex over the whole folder; '' when called with `digest: false`. */
  digest: string;
  size: number;
  fileCount: number;
}

export interface AnalyzeOptions {
  resourcesDir: string;
  /** Name under the root when the folder was reached through a link. */
  dirName?: string;
  /** false: hash nothing and read only SKILL.md and Markdown files (digest is then ''). Default true. */
  digest?: boolean;
  /** The folder's listing when the caller has just taken it (discovery does): saves a readdir. */
  listing?: Listed[];
  /** Each entry's stat as the walk takes it (see WalkOptions.onStat). */
  onStat?: WalkOptions['onStat'];
  /**
   * Unsaved text of `SKILL.md` (the editor's buffer): linted in place of the file on disk, with the
   * rest of the folder (references, links) as it is on disk. Nothing is written.
   */
  skillText?: string;
  /**
   * The agent registry of `resourcesDir` (what `loadRegistry` gives), when the caller has it: a
   * bundle of its own (the list door's dist/analyze.cjs) shares no module cache with its caller.
   */
  registry?: Registry;
  /**
   * The folder as already walked (with the options below: hash, SKILL.md and Markdown read) by
   * the scan's reading thread: nothing is read again.
   */
  walked?: WalkResult;
}

const MAX_BODY_LINES = 500;
/** About 5,000 tokens at roughly four characters a token. */
const MAX_BODY_CHARS = 20_000;
const STATE_ROOT = '~/.skilldock/skills-state';

type Diag = (code: string, init: DiagnosticInit) => void;

/** Walk, parse and lint one skill folder. Never throws for a broken skill; diagnostics say why. */
let lastRegistry: { dir: string; registry: Registry } | null = null;

/** loadRegistry caches too, but keys on a joined path: this skips the join for every skill. */
function registryFor(resourcesDir: string): Registry {
  if (lastRegistry?.dir !== resourcesDir) lastRegistry = { dir: resourcesDir, registry: loadRegistry(resourcesDir) };
  return lastRegistry.registry;
}

export async function analyzeSkill(dirIn: string, opts: AnalyzeOptions): Promise<SkillAnalysis> {
  const registry = opts.registry ?? registryFor(opts.resourcesDir);
  const dir = isCleanAbsolute(dirIn) ? dirIn : path.resolve(dirIn);
  const dirName = opts.dirName ?? path.basename(dir);
  const diagnostics: Diagnostic[] = [];
  const diag: Diag = (code, init) => diagnostics.push(makeDiagnostic(code, init, registry));

  const wantDigest = opts.digest !== false;
  const walked =
    opts.walked ??
    walkSkill(dir, {
      hash: wantDigest,
      readSkillFile: true,
      readMarkdown: true,
      listing: opts.listing,
      onStat: opts.onStat,
    });
  const { files, nested } = walked;
  const skillFile = findSkillFile(dir, walked, opts.skillText, diag);
  if (dirName.startsWith('.')) {
    diag('skill-dot-dir', { says: 'message', params: { dir: dirName }, file: dir });
  }
  const { raw, linkedRaw, skillPath } = readSkillFile(dir, skillFile, walked.skillFiles, diag);

  const parsed = raw !== null ? parseSkillText(raw, skillPath, registry) : null;
  if (parsed) diagnostics.push(...parsed.diagnostics);
  const fm = parsed?.frontmatter ?? null;
  if (fm) lintFields(fm, dirName, parsed!.keyLines, registry, (code, init) => diag(code, { ...init, file: skillPath }));
  const { name, description, version, stateId } = identity(fm, dirName);

  const body = parsed?.body ?? '';
  const bodyLine = parsed?.bodyLine ?? 1;
  const legacyPaths = parsed ? lintBody(dir, body, bodyLine, skillPath, stateId, registry, walked, diag) : [];

  checkSymlinks(dir, files, diag);
  if (walked.cut !== undefined) {
    // One bad tree flags its skill; the rest of the skill and of the catalog is read as usual.
    const at = walked.cut.length > 120 ? `${walked.cut.slice(0, 120)}…` : walked.cut;
    diag('skill-tree-too-deep', { says: 'message', params: { max: MAX_TREE_DEPTH, path: at }, file: dir });
  }
  for (const n of nested) {
    diag('skill-nested', {
      says: 'inside',
      params: { path: n.path },
      file: path.join(dir, n.path),
      variant: String(n.depth + 1),
    });
  }

  detachFindings(diagnostics, legacyPaths);
  const linked = new Map<string, Buffer>();
  if (linkedRaw && skillFile?.symlink !== undefined) linked.set(skillFile.path, linkedRaw);
  let size = 0;
  for (const f of files) size += f.size;
  return {
    dir,
    dirName,
    name,
    description,
    frontmatter: fm,
    body,
    bodyLine,
    diagnostics,
    legacyPaths,
    version,
    stateId,
    files,
    digest: wantDigest ? digestSkill(files, walked.hashes, linked) : '',
    size,
    fileCount: files.length,
  };
}

/** SKILL.md as listed (or the unsaved buffer standing for it); else a top-level `skill.md` in another casing, said so. */
function findSkillFile(dir: string, walked: WalkResult, skillText: string | undefined, diag: Diag): SkillFile | undefined {
  const { files, skillFiles } = walked;
  if (skillText !== undefined) {
    // The buffer stands for a regular SKILL.md whatever is on disk (missing, or a link).
    skillFiles.set('SKILL.md', skillText);
    return { path: 'SKILL.md', size: Buffer.byteLength(skillText), mtimeMs: 0, executable: false };
  }
  const exact = files.find((f) => f.path === 'SKILL.md');
  if (exact) return exact;
  const other = files.find((f) => !f.path.includes('/') && f.path.toLowerCase() === 'skill.md');
  if (other) {
    diag('skill-file-case', {
      says: 'message',
      params: { file: other.path },
      file: path.join(dir, other.path),
    });
  }
  return other;
}

/** The skill file's text (through a link when it is one), or null with a diagnostic saying why. */
function readSkillFile(
  dir: string,
  skillFile: SkillFile | undefined,
  skillFiles: Map<string, string>,
  diag: Diag,
): { raw: string | null; linkedRaw: Buffer | null; skillPath: string } {
  // A top-level name joined to a clean absolute dir: what path.join would give, without its pass.
  const skillPath = `${dir === path.sep ? '' : dir}${path.sep}${skillFile?.path ?? 'SKILL.md'}`;
  if (!skillFile) {
    diag('skill-file-missing', { says: 'none', params: { dir }, file: dir });
    return { raw: null, linkedRaw: null, skillPath };
  }
  if (skillFile.symlink !== undefined) {
    diag('skill-file-symlink', { says: 'message', params: { file: skillFile.path, target: skillFile.symlink }, file: skillPath });
  }
  let raw = skillFiles.get(skillFile.path) ?? null;
  let linkedRaw: Buffer | null = null;
  if (raw === null && skillFile.symlink !== undefined) {
    linkedRaw = readLinkedSkillFile(skillPath);
    raw = linkedRaw ? linkedRaw.toString('utf8') : null;
  }
  if (raw === null) {
    diag('skill-file-missing', { says: 'unreadable', params: { file: skillFile.path }, file: skillPath });
  }
  return { raw, linkedRaw, skillPath };
}

/** Name, description and version from the frontmatter, and the state id they give. */
function identity(
  fm: Record<string, unknown> | null,
  dirName: string,
): { name: string | null; description: string | null; version: string | null; stateId: string | null } {
  const name = fm && typeof fm.name === 'string' ? fm.name : null;
  const description = fm && typeof fm.description === 'string' ? fm.description : null;
  const meta = fm?.metadata;
  const version =
    meta && typeof meta === 'object' && !Array.isArray(meta) && typeof (meta as Record<string, unknown>).version === 'string'
      ? ((meta as Record<string, unknown>).version as string)
      : null;
  return { name, description, version, stateId: stateIdFor(name ?? dirName, version) };
}

/** The body's size, its references, and the legacy state paths it names (returned, each also a diagnostic). */
function lintBody(
  dir: string,
  body: string,
  bodyLine: number,
  skillPath: string,
  stateId: string | null,
  registry: Registry,
  walked: WalkResult,
  diag: Diag,
): LegacyPath[] {
  // The reference scan walks every line anyway: it counts them for the size check on the way.
  const scanned = { newlines: -1 };
  const refs = findReferences(body, bodyLine, scanned);
  lintBodySize(body, bodyLine, skillPath, scanned.newlines, diag);
  checkReferences(dir, refs, skillPath, walked.files, walked.dirs, walked.texts, diag);
  const legacy = findLegacy(body, bodyLine, stateId, registry);
  for (const l of legacy) {
    diag('legacy-state-path', {
      says: 'message',
      params: { path: l.path, redirect: l.redirect },
      file: skillPath,
      line: l.line,
      column: l.column,
    });
  }
  return legacy.map(({ path: p, line, redirect }) => ({ path: p, line, redirect }));
}

/** Findings and legacy paths outlive the file text; slices would keep all of it alive. */
function detachFindings(diagnostics: Diagnostic[], legacyPaths: LegacyPath[]): void {
  for (const d of diagnostics) {
    d.message = detachString(d.message);
    const params = d.msg?.params;
    if (params) for (const k of Object.keys(params)) if (typeof params[k] === 'string') params[k] = detachString(params[k]);
  }
  for (const l of legacyPaths) {
    l.path = detachString(l.path);
    l.redirect = detachString(l.redirect);
  }
}

/** Already what path.resolve would return (absolute, no `.`/`..` parts, no doubled or trailing slash). */
function isCleanAbsolute(p: string): boolean {
  if (path.sep !== '/' || p[0] !== '/' || p.length < 2 || p.endsWith('/')) return false;
  return !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
}

const NOT_SPACE = /\S/;

/** `newlines`: the body's count of `\n` when already known, else -1. */
function lintBodySize(body: string, bodyLine: number, file: string, newlines: number, diag: Diag): void {
  // No character but white space (the set trim() takes away), found without making the trimmed copy.
  if (!NOT_SPACE.test(body)) {
    diag('body-empty', { says: 'message', file, line: bodyLine });
    return;
  }
  // Lines of the body without one trailing newline.
  const all = newlines >= 0 ? newlines : countNewlines(body, 0, body.length);
  const lines = all + (body.endsWith('\n') ? 0 : 1);
  if (lines > MAX_BODY_LINES || body.length > MAX_BODY_CHARS) {
    const tokens = Math.round(body.length / 4);
    diag('body-too-long', {
      says: 'message',
      params: { lines, tokens, maxLines: MAX_BODY_LINES },
      file,
      line: bodyLine,
    });
  }
}

function isAbsoluteLike(t: string): boolean {
  return t.startsWith('/') || t.startsWith('\\') || t.includes('\\') || (t.length > 2 && t[1] === ':' && (t[2] === '\\' || t[2] === '/'));
}

const BARE_RESOURCE_DIRS = new Set(['scripts/', 'references/', 'assets/', './', '../']);

function checkReferences(
  dir: string,
  refs: BodyRef[],
  file: string,
  files: SkillFile[],
  dirs: Set<string>,
  texts: Map<string, string>,
  diag: Diag,
): void {
  if (!refs.length) return;
  const fileSet = new Map(files.map((f) => [f.path, f]));
  const links = files.filter((f) => f.symlink !== undefined).map((f) => f.path);
  const exists = (rel: string) =>
    fileSet.has(rel) || dirs.has(rel) || (links.some((l) => rel.startsWith(`${l}/`)) && fs.existsSync(path.join(dir, rel)));

  const seen = new Set<string>();
  const direct = new Set<string>();
  const mdRefs: string[] = [];
  for (const r of refs) {
    if (BARE_RESOURCE_DIRS.has(r.target)) continue;
    const key = `${r.line}\0${r.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where = { file, line: r.line, column: r.column };
    if (isAbsoluteLike(r.target)) {
      diag('reference-absolute', { ...where, says: 'message', params: { target: r.target } });
      continue;
    }
    const rel = resolveRel('', r.target);
    if (rel === null) {
      diag('reference-escapes', { ...where, says: 'message', params: { target: r.target } });
      continue;
    }
    if (!rel) continue;
    if (!exists(rel)) {
      diag('reference-broken', { ...where, says: 'message', params: { target: r.target } });
      continue;
    }
    direct.add(rel);
    const f = fileSet.get(rel);
    if (f && f.symlink === undefined && rel.toLowerCase().endsWith('.md') && rel !== 'SKILL.md' && !mdRefs.includes(rel)) mdRefs.push(rel);
  }
  for (const md of mdRefs) checkDepth(dir, md, texts.get(md), direct, diag);
}

/** Posix path relative to the skill dir; null when it escapes, '' for the dir itself. */
function resolveRel(baseDir: string, target: string): string | null {
  // Most references (`references/a.md`) are already what the normalising join below gives.
  if (!baseDir && isPlainRelative(target)) return target;
  const joined = path.posix.normalize(path.posix.join(baseDir || '.', target));
  if (joined === '..' || joined.startsWith('../')) return null;
  const rel = joined === '.' || joined === './' ? '' : joined.replace(/\/+$/, '');
  return rel.startsWith('./') ? rel.slice(2) : rel;
}

/** Not absolute, and no empty, `.` or `..` segment (so no leading `./`, no trailing or doubled `/`). */
function isPlainRelative(t: string): boolean {
  if (!t || t.charCodeAt(0) === 47) return false;
  let start = 0;
  for (let i = 0; i <= t.length; i++) {
    if (i < t.length && t.charCodeAt(i) !== 47) continue;
    const len = i - start;
    if (len === 0) return false;
    if (t.charCodeAt(start) === 46 && (len === 1 || (len === 2 && t.charCodeAt(start + 1) === 46))) return false;
    start = i + 1;
  }
  return true;
}

/** A referenced .md that itself points at files SKILL.md does not reference directly. */
function checkDepth(dir: string, md: string, known: string | undefined, direct: Set<string>, diag: Diag): void {
  let text = known;
  if (text === undefined) {
    // Not read by the walk (a digest-less lint, or a file over 1 MB).
    try {
      text = fs.readFileSync(path.join(dir, md), 'utf8');
    } catch {
      return;
    }
  }
  const mdDir = path.posix.dirname(md);
  for (const r of findReferences(text, 1)) {
    if (isAbsoluteLike(r.target) || BARE_RESOURCE_DIRS.has(r.target)) continue;
    // Links resolve from the file; resource-dir words (`scripts/x`) from the skill root.
    const rel = resolveRel(r.kind === 'link' ? mdDir : '', r.target);
    if (rel === null || rel === '' || rel === md || rel === 'SKILL.md' || direct.has(rel)) continue;
    diag('reference-too-deep', {
      file: path.join(dir, md),
      line: r.line,
      column: r.column,
      says: 'message',
      params: { file: md, target: rel },
    });
    return;
  }
}

function checkSymlinks(dir: string, files: SkillFile[], diag: Diag): void {
  let realDir: string | null = null;
  for (const f of files) {
    if (f.symlink === undefined) continue;
    realDir ??= safeRealpath(dir);
    const target = f.symlink;
    const parent = path.dirname(f.path);
    const inside = [realDir, dir].some((base) => {
      return isInside(path.resolve(base, parent, target), base);
    });
    if (!inside) {
      diag('symlink-escapes', { file: path.join(dir, f.path), says: 'message', params: { file: f.path, target } });
    }
  }
}

function safeRealpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

const homeRootsCache = new WeakMap<Registry, string[]>();

/** `~/...` dirs that are skill roots (agents' user dirs): paths there are skills, not state. */
function skillRootPrefixes(registry: Registry): string[] {
  let roots = homeRootsCache.get(registry);
  if (!roots) {
    const all = [...registry.agents, ...registry.documentedOnly].flatMap((a) => a.userDirs);
    roots = [...new Set(all.filter((d) => d.startsWith('~/')).map((d) => `${d.replace(/\/+$/, '')}/`))];
    roots.push('~/.skilldock/');
    homeRootsCache.set(registry, roots);
  }
  return roots;
}

function findLegacy(body: string, bodyLine: number, stateId: string | null, registry: Registry): (LegacyPath & { column: number })[] {
  if (!body.includes('~/') && !body.includes('HOME')) return [];
  const roots = skillRootPrefixes(registry);
  const out: (LegacyPath & { column: number })[] = [];
  const seen = new Set<string>();
  for (const h of findHomePaths(body, bodyLine)) {
    const withSlash = h.path.endsWith('/') ? h.path : `${h.path}/`;
    if (roots.some((r) => withSlash.startsWith(r) || r === withSlash)) continue;
    if (seen.has(h.path)) continue;
    seen.add(h.path);
    // Same mapping as the launch write policy: a path's folder becomes the state dir (`~/code/x` ->
    // `<state>/x`, `~/code/` -> `<state>/`), a file straight in home keeps its name.
    const file = h.path.endsWith('/') ? '' : path.posix.basename(h.path);
    out.push({ path: h.path, line: h.line, column: h.column, redirect: `${STATE_ROOT}/${stateId ?? '<id>'}/${file}` });
  }
  return out;
}
