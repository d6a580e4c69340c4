import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  formatMessage,
  type ConflictChoice,
  type ImportResult,
  type JournalChange,
  type LibraryMode,
  type MessageKey,
  type MessageParams,
  type MessageRef,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { SkillDockError } from '../errors.js';
import { extractArchive, type ArchiveLimits } from './archive.js';
import { skillFacts, unsafeFolderName, type SkillFacts } from './analyze.js';
import { isInside } from '../base/extpath.js';
import { copySkillTree, lstatOrNull, removeTreeSafely, treeDigest, LinkOutsideError, MAX_TREE_DEPTH, TreeTooDeepError } from './tree.js';
import { libraryDir, moveToTrash } from './trash.js';
import { setFrontmatterName } from './skill-md-edit.js';
import { revertChange } from './journal.js';
import { loadRegistry } from '../agents/registry.js';

// The import pipeline shared by import and adopt. Runs under the library lock. Sources are read in
// place (folders) or extracted into `<home>/staging/<id>/` (archives); every new library folder is
// assembled in staging and renamed into `library/` in one step, so a failure leaves nothing
// half-written. Returns per-skill results and the journal changes.

export interface ImportSource {
  path: string;
  mode: LibraryMode;
}

export interface ImportRunOptions {
  onConflict?: ConflictChoice;
  resolutions?: Record<string, ConflictChoice>;
  importId: string;
  limits?: Partial<ArchiveLimits>;
  /** Each change is announced here before it is made (crash safety; see wal.ts). */
  wal?: Announce;
}

/** Where an operation announces a change before making it. */
export interface Announce {
  will(change: JournalChange): void;
}

export interface ImportRun {
  results: ImportResult[];
  changes: JournalChange[];
  /** Library folder names created or replaced. */
  names: string[];
}

interface Candidate {
  source: string;
  dir: string;
  dirName: string;
  mode: LibraryMode;
  /** Already a private copy inside staging (extracted from an archive). */
  staged: boolean;
  /** `dirName` is an archive's file name (the skill sits at the archive's root), not a folder's. */
  archiveRoot: boolean;
  facts: SkillFacts;
}

const ARCHIVE_EXT = /\.(zip|skill)$/i;
const SKIPPED_CHILDREN = new Set(['__MACOSX', 'node_modules']);

/** SKILL.md, or a case variant (`skill.md`): imported too, with lint's skill-file-case finding visible. */
function hasSkillFile(dir: string): boolean {
  try {
    if (fs.statSync(path.join(dir, 'SKILL.md')).isFile()) return true;
  } catch {
    // look for a case variant below
  }
  try {
    return fs.readdirSync(dir).some((n) => n.toLowerCase() === 'skill.md' && fs.statSync(path.join(dir, n)).isFile());
  } catch {
    return false;
  }
}

/** Skill folders in `dir`: itself, else its children with a SKILL.md, else inside its only child. */
function findSkillDirs(dir: string, depth = 0): string[] {
  if (hasSkillFile(dir)) return [dir];
  let kids: fs.Dirent[];
  try {
    kids = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders = kids
    .filter((k) => !k.name.startsWith('.') && !SKIPPED_CHILDREN.has(k.name))
    .map((k) => path.join(dir, k.name))
    .filter((p) => {
      try {
        return fs.statSync(p).isDirectory();
      } catch {
        return false; // dangling link
      }
    })
    .sort();
  const skills = folders.filter(hasSkillFile);
  if (skills.length) return skills;
  if (folders.length === 1 && depth < 2) return findSkillDirs(folders[0], depth + 1);
  return [];
}

/** Letters from other scripts drawn like Latin ones (a few common confusables, not all of Unicode's). */
const CONFUSABLE: Record<string, string> = {
  '\u0430': 'a',
  '\u0435': 'e',
  '\u043e': 'o',
  '\u0440': 'p',
  '\u0441': 'c',
  '\u0443': 'y',
  '\u0445': 'x',
  '\u0456': 'i',
  '\u0458': 'j',
  '\u0455': 's',
  '\u0501': 'd',
  '\u04bb': 'h',
  '\u0442': 't',
  '\u043a': 'k',
  '\u03bf': 'o',
  '\u03b1': 'a',
  '\u03b9': 'i',
  '\u03ba': 'k',
  '\u03bd': 'v',
  '\u03c1': 'p',
  '\u03c4': 't',
  '\u03c5': 'u',
  '\u03c7': 'x',
};

/** How a name looks: compatibility-normalised, lower case, confusable letters as the Latin ones. */
function skeleton(name: string): string {
  return [...name.normalize('NFKC').toLowerCase()].map((ch) => CONFUSABLE[ch] ?? ch).join('');
}

/** A message of this file as a key and parameters (English in src/contract/messages-import.ts). */
function says(key: MessageKey, params?: MessageParams): MessageRef {
  return params ? { key, params } : { key };
}

/** `message` and `msg` of a result. */
function worded(msg: MessageRef): { message: string; msg: MessageRef } {
  return { message: formatMessage(msg), msg };
}

/**
 * A SKILL.md with no frontmatter at all: Claude Code still lists it (folder name, first body line),
 * so it is imported under its folder name when that is a safe one, with a word on who loads it.
 */
function bareSkill(c: Candidate): boolean {
  return !c.facts.name && c.facts.diagnostics.some((d) => d.code === 'frontmatter-missing') && !unsafeFolderName(c.dirName);
}

/** Which agents list a skill without frontmatter and which drop it, from the registry. */
function noFrontmatterNotice(ctx: ServiceContext): MessageRef {
  const agents = loadRegistry(ctx.paths.resourcesDir).agents.filter((a) => a.command !== null);
  const names = (list: typeof agents) => list.map((a) => a.name).join(', ');
  return says('import.no-frontmatter', {
    loaders: names(agents.filter((a) => a.listing?.listsBroken === true)),
    droppers: names(agents.filter((a) => a.listing?.listsBroken !== true)),
  });
}

function refused(source: string, msg: MessageRef, facts?: SkillFacts): ImportResult {
  return {
    source,
    name: facts?.name ?? null,
    status: 'refused',
    diagnostics: facts?.diagnostics ?? [],
    ...(facts ? { digest: facts.digest } : {}),
    message: formatMessage(msg),
    msg,
  };
}

class Progress {
  private last = 0;
  skillsDone = 0;
  bytesDone = 0;
  constructor(
    private ctx: ServiceContext,
    private importId: string,
    public skillsTotal: number,
    public bytesTotal: number,
  ) {}
  emit(current?: string, force = false): void {
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.ctx.events.emit({
      type: 'import-progress',
      importId: this.importId,
      skillsDone: this.skillsDone,
      skillsTotal: this.skillsTotal,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      ...(current ? { current } : {}),
    });
  }
}

/**
 * A folder that holds SkillDock's home would be copied into itself, level after level; one inside
 * it (the library, the trash) is SkillDock's own. Dropped uploads, staged under `staging/` or `uploads/` (the browser UI's batches), are fine.
 */
function homeOverlap(home: string, dir: string): 'import.holds-home' | 'import.inside-home' | null {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p); // not there (or a broken link): compare the path as given
    }
  };
  const h = real(home);
  const d = real(dir);
  if (isInside(h, d)) return 'import.holds-home';
  if (isInside(d, h) && !isInside(d, path.join(h, 'staging')) && !isInside(d, path.join(h, 'uploads'))) return 'import.inside-home';
  return null;
}

type Root = { dir: string; source: string; dirName: string; archiveRoot: boolean };
type Placed = { ok: true } | { ok: false; msg: MessageRef };
/** What every result of one candidate shares. */
type ResultBase = Pick<ImportResult, 'source' | 'name' | 'diagnostics' | 'digest'> & Partial<ImportResult>;

/**
 * One import under the library lock: find the skills in the sources (phase 1), then decide and
 * write one skill at a time (phase 2), each change announced before it is made and kept for the
 * journal entry.
 */
class ImportRunner {
  readonly results: ImportResult[] = [];
  readonly changes: JournalChange[] = [];
  readonly names: string[] = [];
  private readonly lib: string;
  private readonly stagingRoot: string;
  private readonly staging: string;
  private stagingMade = false;
  private seq = 0;
  private progress: Progress | null = null;
  /** Names taken in this run (keep-both must not pick one twice). */
  private readonly claimed = new Set<string>();
  /** Library names by how they look (see `skeleton`): a new name that looks like one is a conflict. */
  private readonly spelled = new Map<string, string>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: ImportRunOptions,
  ) {
    this.lib = libraryDir(ctx);
    // Our own corner of `<home>/staging`: other front doors (browser uploads) stage next to it.
    this.stagingRoot = path.join(ctx.paths.home, 'staging', 'import');
    this.staging = path.join(this.stagingRoot, `${opts.importId.replace(/[^\w-]/g, '_').slice(0, 40)}-${randomBytes(4).toString('hex')}`);
  }

  /** We hold the library lock, so nothing else is staging: clear what a killed import left behind. */
  clearLeftovers(): void {
    const leftovers = fs.existsSync(this.stagingRoot) ? fs.readdirSync(this.stagingRoot, { withFileTypes: true }) : [];
    for (const old of leftovers.filter((d) => d.isDirectory())) removeTreeSafely(path.join(this.stagingRoot, old.name));
  }

  cleanup(): void {
    if (!this.stagingMade) return;
    removeTreeSafely(this.staging);
    try {
      fs.rmdirSync(this.stagingRoot);
    } catch {
      // not empty: another process is staging too
    }
  }

  private ensureStaging(): void {
    if (!this.stagingMade) {
      fs.mkdirSync(this.staging, { recursive: true });
      this.stagingMade = true;
    }
  }

  /** Announce a change (write-ahead), make it, and keep it for the journal entry. */
  private record(change: JournalChange, act: () => void): void {
    this.opts.wal?.will(change);
    act();
    this.changes.push(change);
  }

  // ---- phase 1: find every skill in every source (extracting archives into staging), analyse it

  async gather(sources: ImportSource[]): Promise<Candidate[]> {
    const candidates: Candidate[] = [];
    for (const src of sources) {
      const found = await this.rootsOf(src);
      if (!found) continue;
      for (const r of found.roots) {
        try {
          const facts = await skillFacts(this.ctx, r.dir, r.dirName);
          // One rule for copy and link: a tree the catalog cannot read whole never enters the library.
          if (facts.diagnostics.some((d) => d.code === 'skill-tree-too-deep')) {
            this.results.push(refused(r.source, says('import.too-deep', { max: MAX_TREE_DEPTH }), facts));
            continue;
          }
          candidates.push({ ...r, mode: src.mode, staged: found.staged, facts });
        } catch (err) {
          this.results.push(refused(r.source, says('import.unreadable', { reason: (err as Error).message })));
        }
      }
    }
    return candidates;
  }

  /** The skill folders of one source, or null (and a refusal in the results). */
  private async rootsOf(src: ImportSource): Promise<{ roots: Root[]; staged: boolean } | null> {
    const abs = path.resolve(src.path);
    const refuse = (msg: MessageRef) => {
      this.results.push(refused(abs, msg));
      return null;
    };
    const st = lstatOrNull(abs) && fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) return refuse(says('import.not-found', { path: abs }));
    let roots: Root[];
    let staged = false;
    if (st.isFile()) {
      if (!ARCHIVE_EXT.test(abs)) return refuse(says('import.not-archive', { name: path.basename(abs) }));
      if (src.mode === 'link') return refuse(says('import.archive-copy-only'));
      this.ensureStaging();
      const dest = path.join(this.staging, `a${this.seq++}`);
      try {
        await extractArchive(abs, dest, { limits: this.opts.limits });
      } catch (err) {
        // Whatever went wrong (a refusal, a disk error), nothing of this archive stays in staging.
        removeTreeSafely(dest);
        const e = err as SkillDockError;
        return refuse((err instanceof SkillDockError && e.msg) || says('import.failed', { reason: (err as Error).message }));
      }
      staged = true;
      const base = path.basename(abs).replace(ARCHIVE_EXT, '');
      roots = findSkillDirs(dest).map((d) => {
        const rel = path.relative(dest, d).split(path.sep).join('/');
        return { dir: d, source: rel ? `${abs}!/${rel}` : abs, dirName: rel ? path.basename(d) : base, archiveRoot: !rel };
      });
    } else if (st.isDirectory()) {
      const overlap = homeOverlap(this.ctx.paths.home, abs);
      if (overlap) return refuse(says(overlap, { path: abs }));
      roots = findSkillDirs(abs).map((d) => ({ dir: d, source: d, dirName: path.basename(d), archiveRoot: false }));
    } else {
      return refuse(says('import.not-folder', { path: abs }));
    }
    if (roots.length === 0) return refuse(says('import.no-skill', { name: path.basename(abs) }));
    return { roots, staged };
  }

  // ---- phase 2: decide and write, one skill at a time

  async placeAll(candidates: Candidate[]): Promise<void> {
    const progress = new Progress(
      this.ctx,
      this.opts.importId,
      candidates.length,
      candidates.reduce((n, c) => n + (c.mode === 'copy' ? c.facts.size : 0), 0),
    );
    this.progress = progress;
    progress.emit(undefined, true);
    for (const n of lstatOrNull(this.lib) ? fs.readdirSync(this.lib) : []) this.spelled.set(skeleton(n), n);
    for (const c of candidates) {
      const mark = this.changes.length;
      const before = this.results.length;
      try {
        await this.importOne(c);
      } catch (err) {
        this.takeBack(mark, before);
        this.results.push(refused(c.source, says('import.failed', { reason: (err as Error).message }), c.facts));
        progress.skillsDone++;
        progress.emit(undefined, true);
      }
    }
  }

  /**
   * An unexpected disk error: take back this skill's partial changes, newest first, so the library
   * is as it was before it; the rest of the batch goes on.
   */
  private takeBack(mark: number, resultsBefore: number): void {
    const kept: JournalChange[] = [];
    for (const ch of this.changes.splice(mark).reverse()) {
      try {
        revertChange(ch);
      } catch {
        kept.unshift(ch);
      }
    }
    this.changes.push(...kept);
    this.results.splice(resultsBefore);
    for (const n of this.names.splice(0)) if (lstatOrNull(path.join(this.lib, n))) this.names.push(n);
  }

  private lookAlikeOf(name: string): string | undefined {
    const other = this.spelled.get(skeleton(name));
    return other !== undefined && other !== name ? other : undefined;
  }

  /** A private copy of `c` in staging (a staged archive skill is one already). */
  private stageCopy(c: Candidate): { work: string } | { msg: MessageRef } {
    const progress = this.progress!;
    if (c.staged) {
      progress.bytesDone += c.facts.size;
      return { work: c.dir };
    }
    this.ensureStaging();
    const work = path.join(this.staging, `s${this.seq++}`);
    try {
      copySkillTree(c.dir, work, {
        onBytes: (n) => {
          progress.bytesDone += n;
          progress.emit(c.facts.name ?? c.dirName);
        },
      });
    } catch (err) {
      removeTreeSafely(work);
      if (err instanceof LinkOutsideError) return { msg: says('import.link-outside', { file: err.rel, target: err.target }) };
      if (err instanceof TreeTooDeepError) return { msg: says('import.too-deep', { max: MAX_TREE_DEPTH }) };
      throw err;
    }
    return { work };
  }

  /** Made (and journaled) only when a skill is about to go in: a refused skill leaves nothing to undo. */
  private ensureLibrary(): void {
    if (!lstatOrNull(this.lib)) this.record({ kind: 'created-dir', path: this.lib }, () => fs.mkdirSync(this.lib, { recursive: true }));
  }

  /**
   * Put `c` into the library as `finalName`. `beforePlace` runs once the new copy is ready, right
   * before it goes in (replace moves the old one to the trash there, not earlier).
   */
  private async place(c: Candidate, finalName: string, beforePlace?: () => void): Promise<Placed> {
    const dest = path.join(this.lib, finalName);
    if (c.mode === 'link') {
      const target = fs.realpathSync(c.dir);
      beforePlace?.();
      this.ensureLibrary();
      this.record({ kind: 'created', path: dest, linkTarget: target }, () => fs.symlinkSync(target, dest, 'dir'));
      this.spelled.set(skeleton(finalName), finalName);
      return { ok: true };
    }
    const staged = this.stageCopy(c);
    if ('msg' in staged) return { ok: false, msg: staged.msg };
    const { work } = staged;
    if (finalName !== (bareSkill(c) ? c.dirName : c.facts.name)) {
      const file = path.join(work, 'SKILL.md');
      const edited = setFrontmatterName(fs.readFileSync(file, 'utf8'), finalName);
      const check = edited === null ? null : (fs.writeFileSync(file, edited), await skillFacts(this.ctx, work, finalName));
      if (!check || check.name !== finalName) return { ok: false, msg: says('import.rename-failed', { name: finalName }) };
    }
    const digest = treeDigest(work);
    beforePlace?.();
    this.ensureLibrary();
    this.record({ kind: 'created', path: dest, digest }, () => fs.renameSync(work, dest));
    this.spelled.set(skeleton(finalName), finalName);
    return { ok: true };
  }

  /** The trash move of a replace, run by `place` right before the new copy goes in. */
  private replacing(name: string, into: { trashId?: string }): () => void {
    return () => {
      const trashed = moveToTrash(this.ctx, name, 'replaced', this.opts.wal);
      this.changes.push(...trashed.changes);
      this.spelled.delete(skeleton(name));
      into.trashId = trashed.entry.id;
    };
  }

  /** A result, counted in the progress. */
  private done(c: Candidate, size: number, r: ImportResult): void {
    const progress = this.progress!;
    this.results.push(r);
    progress.skillsDone++;
    if (r.status !== 'imported' && r.status !== 'replaced' && r.status !== 'kept-both' && c.mode === 'copy') progress.bytesDone += size;
    progress.emit(undefined, true);
  }

  private async importOne(c: Candidate): Promise<void> {
    const bare = bareSkill(c);
    const f = bare ? { ...c.facts, name: c.dirName } : c.facts;
    const notice = bare ? worded(noFrontmatterNotice(this.ctx)) : {};
    // The skill takes its SKILL.md name, not its folder's: say so (the folder's mismatch finding
    // is about the source, not the library copy, which is named right, so it is left out).
    const renamed = !bare && f.name !== null && f.name !== c.dirName && !c.archiveRoot ? { from: c.dirName, to: f.name } : undefined;
    const base: ResultBase = {
      source: c.source,
      name: f.name,
      diagnostics: renamed ? f.diagnostics.filter((d) => d.code !== 'name-dir-mismatch') : f.diagnostics,
      digest: f.digest,
      ...notice,
      ...(renamed ? { renamed, notices: [says('import.renamed', renamed)] } : {}),
    };
    this.progress!.emit(f.name ?? c.dirName, true);
    const done = (r: ImportResult) => this.done(c, f.size, r);
    if (!f.name) return done(refused(c.source, says('import.no-name'), f));
    const unsafe = unsafeFolderName(f.name);
    if (unsafe) return done(refused(c.source, says('import.bad-folder-name', { name: f.name, problem: unsafe }), f));
    const name = f.name;
    const existing = lstatOrNull(path.join(this.lib, name));
    const twin = existing ? undefined : this.lookAlikeOf(name);
    if (twin !== undefined) return this.besideLookAlike(c, f, base, name, twin, done);
    if (!existing) {
      const r = await this.place(c, name);
      if (!r.ok) return done(refused(c.source, r.msg, f));
      this.names.push(name);
      this.claimed.add(name);
      const linkTarget = c.mode === 'link' ? { linkTarget: fs.realpathSync(c.dir) } : {};
      return done({ ...base, status: 'imported', libraryName: name, dir: path.join(this.lib, name), ...linkTarget });
    }
    return this.overExisting(c, f, base, name, existing, done);
  }

  /**
   * `pdf` beside `PDF`, `café` beside `café` decomposed, `рdf` (Cyrillic р) beside `pdf`: one name
   * to a reader, two folders (or one, on another disk). Asked like a name clash.
   */
  private async besideLookAlike(
    c: Candidate,
    f: SkillFacts,
    base: ResultBase,
    name: string,
    twin: string,
    done: (r: ImportResult) => void,
  ): Promise<void> {
    const choice = this.opts.resolutions?.[name] ?? this.opts.onConflict;
    const atTwin = { libraryName: twin, dir: path.join(this.lib, twin) };
    if (!choice) return done({ ...base, status: 'conflict', ...atTwin, ...worded(says('import.look-alike', { name, existing: twin })) });
    if (choice === 'skip') return done({ ...base, status: 'skipped', ...atTwin });
    const replaced: { trashId?: string } = {};
    const r = await this.place(c, name, choice === 'replace' ? this.replacing(twin, replaced) : undefined);
    if (!r.ok) return done(refused(c.source, r.msg, f));
    const { trashId } = replaced;
    this.names.push(name);
    if (trashId) this.names.push(twin);
    this.claimed.add(name);
    done({
      ...base,
      status: trashId ? 'replaced' : 'kept-both',
      libraryName: name,
      dir: path.join(this.lib, name),
      ...(trashId ? { trashId } : {}),
    });
  }

  /** A library skill of the same name: the same content, or a conflict settled by the user's choice. */
  private async overExisting(
    c: Candidate,
    f: SkillFacts,
    base: ResultBase,
    name: string,
    existing: fs.Stats,
    done: (r: ImportResult) => void,
  ): Promise<void> {
    const dest = path.join(this.lib, name);
    let sameLink = false;
    if (c.mode === 'link' && existing.isSymbolicLink()) {
      try {
        sameLink = fs.realpathSync(dest) === fs.realpathSync(c.dir);
      } catch {
        sameLink = false;
      }
    }
    let existingDigest: string | undefined;
    if (!sameLink) {
      try {
        existingDigest = (await skillFacts(this.ctx, dest, name)).digest;
      } catch {
        existingDigest = undefined; // a broken link or unreadable folder: always a conflict
      }
    }
    if (sameLink || existingDigest === f.digest) {
      return done({ ...base, status: 'already-present', libraryName: name, dir: dest, ...worded(says('import.already-present')) });
    }
    const choice = this.opts.resolutions?.[name] ?? this.opts.onConflict;
    const clash = { ...base, ...(existingDigest ? { existingDigest } : {}) };
    if (!choice) return done({ ...clash, status: 'conflict', libraryName: name, dir: dest, ...worded(says('import.conflict', { name })) });
    if (choice === 'skip') return done({ ...clash, status: 'skipped', libraryName: name, dir: dest });
    if (choice === 'replace') {
      // The new copy is made ready first; the old one goes to the trash only then, right before
      // the new one takes its place (a crash in between is rolled back from the write-ahead log).
      const replaced: { trashId?: string } = {};
      const r = await this.place(c, name, this.replacing(name, replaced));
      if (!r.ok) return done(refused(c.source, r.msg, f));
      this.names.push(name);
      return done({ ...clash, status: 'replaced', libraryName: name, dir: dest, trashId: replaced.trashId! });
    }
    // keep-both
    if (c.mode === 'link') return done(refused(c.source, says('import.keep-both-link'), f));
    let n = 2;
    while (lstatOrNull(path.join(this.lib, `${name}-${n}`)) || this.claimed.has(`${name}-${n}`)) n++;
    const fresh = `${name}-${n}`;
    const r = await this.place(c, fresh);
    if (!r.ok) return done(refused(c.source, r.msg, f));
    this.claimed.add(fresh);
    this.names.push(fresh);
    const digest = (await skillFacts(this.ctx, path.join(this.lib, fresh), fresh)).digest;
    done({ ...clash, digest, status: 'kept-both', libraryName: fresh, dir: path.join(this.lib, fresh) });
  }
}

export async function runImport(ctx: ServiceContext, sources: ImportSource[], opts: ImportRunOptions): Promise<ImportRun> {
  const run = new ImportRunner(ctx, opts);
  run.clearLeftovers();
  try {
    await run.placeAll(await run.gather(sources));
    return { results: run.results, changes: run.changes, names: run.names };
  } finally {
    run.cleanup();
  }
}
