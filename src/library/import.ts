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
import {
  copySkillTree,
  isInside,
  lstatOrNull,
  removeTreeSafely,
  treeDigest,
  LinkOutsideError,
  MAX_TREE_DEPTH,
  TreeTooDeepError,
} from './tree.js';
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

export async function runImport(ctx: ServiceContext, sources: ImportSource[], opts: ImportRunOptions): Promise<ImportRun> {
  const lib = libraryDir(ctx);
  // Our own corner of `<home>/staging`: other front doors (browser uploads) stage next to it.
  const stagingRoot = path.join(ctx.paths.home, 'staging', 'import');
  const staging = path.join(stagingRoot, `${opts.importId.replace(/[^\w-]/g, '_').slice(0, 40)}-${randomBytes(4).toString('hex')}`);
  let stagingMade = false;
  const ensureStaging = () => {
    if (!stagingMade) {
      fs.mkdirSync(staging, { recursive: true });
      stagingMade = true;
    }
  };
  let seq = 0;
  const results: ImportResult[] = [];
  const changes: JournalChange[] = [];
  /** Announce a change (write-ahead), make it, and keep it for the journal entry. */
  const record = (change: JournalChange, act: () => void) => {
    opts.wal?.will(change);
    act();
    changes.push(change);
  };
  const names: string[] = [];

  // We hold the library lock, so nothing else is staging: clear what a killed import left behind.
  const leftovers = fs.existsSync(stagingRoot) ? fs.readdirSync(stagingRoot, { withFileTypes: true }) : [];
  for (const old of leftovers.filter((d) => d.isDirectory())) {
    removeTreeSafely(path.join(stagingRoot, old.name));
  }
  try {
    // 1. Find every skill in every source (extracting archives into staging) and analyse it.
    const candidates: Candidate[] = [];
    for (const src of sources) {
      const abs = path.resolve(src.path);
      const st = lstatOrNull(abs) && fs.statSync(abs, { throwIfNoEntry: false });
      if (!st) {
        results.push(refused(abs, says('import.not-found', { path: abs })));
        continue;
      }
      let roots: { dir: string; source: string; dirName: string; archiveRoot: boolean }[] = [];
      let staged = false;
      if (st.isFile()) {
        if (!ARCHIVE_EXT.test(abs)) {
          results.push(refused(abs, says('import.not-archive', { name: path.basename(abs) })));
          continue;
        }
        if (src.mode === 'link') {
          results.push(refused(abs, says('import.archive-copy-only')));
          continue;
        }
        ensureStaging();
        const dest = path.join(staging, `a${seq++}`);
        try {
          await extractArchive(abs, dest, { limits: opts.limits });
        } catch (err) {
          // Whatever went wrong (a refusal, a disk error), nothing of this archive stays in staging.
          removeTreeSafely(dest);
          const e = err as SkillDockError;
          results.push(refused(abs, (err instanceof SkillDockError && e.msg) || says('import.failed', { reason: (err as Error).message })));
          continue;
        }
        staged = true;
        const base = path.basename(abs).replace(ARCHIVE_EXT, '');
        roots = findSkillDirs(dest).map((d) => {
          const rel = path.relative(dest, d).split(path.sep).join('/');
          return { dir: d, source: rel ? `${abs}!/${rel}` : abs, dirName: rel ? path.basename(d) : base, archiveRoot: !rel };
        });
      } else if (st.isDirectory()) {
        const overlap = homeOverlap(ctx.paths.home, abs);
        if (overlap) {
          results.push(refused(abs, says(overlap, { path: abs })));
          continue;
        }
        roots = findSkillDirs(abs).map((d) => ({ dir: d, source: d, dirName: path.basename(d), archiveRoot: false }));
      } else {
        results.push(refused(abs, says('import.not-folder', { path: abs })));
        continue;
      }
      if (roots.length === 0) {
        results.push(refused(abs, says('import.no-skill', { name: path.basename(abs) })));
        continue;
      }
      for (const r of roots) {
        try {
          const facts = await skillFacts(ctx, r.dir, r.dirName);
          candidates.push({ ...r, mode: src.mode, staged, facts });
        } catch (err) {
          results.push(refused(r.source, says('import.unreadable', { reason: (err as Error).message })));
        }
      }
    }

    // 2. Decide and write, one skill at a time.
    const progress = new Progress(
      ctx,
      opts.importId,
      candidates.length,
      candidates.reduce((n, c) => n + (c.mode === 'copy' ? c.facts.size : 0), 0),
    );
    progress.emit(undefined, true);
    const claimed = new Set<string>();
    // Library names by how they look (see `skeleton`): a new name that looks like one is a conflict.
    const spelled = new Map<string, string>();
    for (const n of lstatOrNull(lib) ? fs.readdirSync(lib) : []) spelled.set(skeleton(n), n);
    const lookAlikeOf = (name: string): string | undefined => {
      const other = spelled.get(skeleton(name));
      return other !== undefined && other !== name ? other : undefined;
    };

    /**
     * Put `c` into the library as `finalName`. `beforePlace` runs once the new copy is ready, right
     * before it goes in (replace moves the old one to the trash there, not earlier).
     */
    const place = async (
      c: Candidate,
      finalName: string,
      beforePlace?: () => void,
    ): Promise<{ ok: true } | { ok: false; msg: MessageRef }> => {
      const dest = path.join(lib, finalName);
      // Made (and journaled) only when a skill is about to go in: a refused skill leaves nothing to undo.
      const ensureLibrary = () => {
        if (!lstatOrNull(lib)) record({ kind: 'created-dir', path: lib }, () => fs.mkdirSync(lib, { recursive: true }));
      };
      if (c.mode === 'link') {
        const target = fs.realpathSync(c.dir);
        if (beforePlace) beforePlace();
        ensureLibrary();
        record({ kind: 'created', path: dest, linkTarget: target }, () => fs.symlinkSync(target, dest, 'dir'));
        spelled.set(skeleton(finalName), finalName);
        return { ok: true };
      }
      let work = c.dir;
      if (!c.staged) {
        ensureStaging();
        work = path.join(staging, `s${seq++}`);
        try {
          copySkillTree(c.dir, work, {
            onBytes: (n) => {
              progress.bytesDone += n;
              progress.emit(c.facts.name ?? c.dirName);
            },
          });
        } catch (err) {
          removeTreeSafely(work);
          if (err instanceof LinkOutsideError)
            return { ok: false, msg: says('import.link-outside', { file: err.rel, target: err.target }) };
          if (err instanceof TreeTooDeepError) return { ok: false, msg: says('import.too-deep', { max: MAX_TREE_DEPTH }) };
          throw err;
        }
      } else {
        progress.bytesDone += c.facts.size;
      }
      if (finalName !== (bareSkill(c) ? c.dirName : c.facts.name)) {
        const file = path.join(work, 'SKILL.md');
        const edited = setFrontmatterName(fs.readFileSync(file, 'utf8'), finalName);
        const check = edited === null ? null : (fs.writeFileSync(file, edited), await skillFacts(ctx, work, finalName));
        if (!check || check.name !== finalName) {
          return { ok: false, msg: says('import.rename-failed', { name: finalName }) };
        }
      }
      const digest = treeDigest(work);
      if (beforePlace) beforePlace();
      ensureLibrary();
      record({ kind: 'created', path: dest, digest }, () => fs.renameSync(work, dest));
      spelled.set(skeleton(finalName), finalName);
      return { ok: true };
    };

    const importOne = async (c: Candidate): Promise<void> => {
      const bare = bareSkill(c);
      const f = bare ? { ...c.facts, name: c.dirName } : c.facts;
      const notice = bare ? worded(noFrontmatterNotice(ctx)) : {};
      // The skill takes its SKILL.md name, not its folder's: say so (the folder's mismatch finding
      // is about the source, not the library copy, which is named right, so it is left out).
      const renamed = !bare && f.name !== null && f.name !== c.dirName && !c.archiveRoot ? { from: c.dirName, to: f.name } : undefined;
      const base = {
        source: c.source,
        name: f.name,
        diagnostics: renamed ? f.diagnostics.filter((d) => d.code !== 'name-dir-mismatch') : f.diagnostics,
        digest: f.digest,
        ...notice,
        ...(renamed ? { renamed, notices: [says('import.renamed', renamed)] } : {}),
      };
      progress.emit(f.name ?? c.dirName, true);
      const done = (r: ImportResult) => {
        results.push(r);
        progress.skillsDone++;
        if (r.status !== 'imported' && r.status !== 'replaced' && r.status !== 'kept-both' && c.mode === 'copy') {
          progress.bytesDone += f.size;
        }
        progress.emit(undefined, true);
      };
      if (!f.name) {
        done(refused(c.source, says('import.no-name'), f));
        return;
      }
      const unsafe = unsafeFolderName(f.name);
      if (unsafe) {
        done(refused(c.source, says('import.bad-folder-name', { name: f.name, problem: unsafe }), f));
        return;
      }
      const name = f.name;
      const dest = path.join(lib, name);
      const existing = lstatOrNull(dest);
      const twin = existing ? undefined : lookAlikeOf(name);
      if (twin !== undefined) {
        // `pdf` beside `PDF`, `café` beside `café` decomposed, `рdf` (Cyrillic р) beside `pdf`: one
        // name to a reader, two folders (or one, on another disk). Asked like a name clash.
        const choice = opts.resolutions?.[name] ?? opts.onConflict;
        if (!choice) {
          done({
            ...base,
            status: 'conflict',
            libraryName: twin,
            dir: path.join(lib, twin),
            ...worded(says('import.look-alike', { name, existing: twin })),
          });
          return;
        }
        if (choice === 'skip') {
          done({ ...base, status: 'skipped', libraryName: twin, dir: path.join(lib, twin) });
          return;
        }
        let trashId: string | undefined;
        const r = await place(
          c,
          name,
          choice === 'replace'
            ? () => {
                const trashed = moveToTrash(ctx, twin, 'replaced', opts.wal);
                changes.push(...trashed.changes);
                spelled.delete(skeleton(twin));
                trashId = trashed.entry.id;
              }
            : undefined,
        );
        if (!r.ok) {
          done(refused(c.source, r.msg, f));
          return;
        }
        names.push(name);
        if (trashId) names.push(twin);
        claimed.add(name);
        done({ ...base, status: trashId ? 'replaced' : 'kept-both', libraryName: name, dir: dest, ...(trashId ? { trashId } : {}) });
        return;
      }
      if (!existing) {
        const r = await place(c, name);
        if (!r.ok) done(refused(c.source, r.msg, f));
        else {
          names.push(name);
          claimed.add(name);
          done({
            ...base,
            status: 'imported',
            libraryName: name,
            dir: dest,
            ...(c.mode === 'link' ? { linkTarget: fs.realpathSync(c.dir) } : {}),
          });
        }
        return;
      }
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
          existingDigest = (await skillFacts(ctx, dest, name)).digest;
        } catch {
          existingDigest = undefined; // a broken link or unreadable folder: always a conflict
        }
      }
      if (sameLink || existingDigest === f.digest) {
        done({ ...base, status: 'already-present', libraryName: name, dir: dest, ...worded(says('import.already-present')) });
        return;
      }
      const choice = opts.resolutions?.[name] ?? opts.onConflict;
      const conflictInfo = existingDigest ? { existingDigest } : {};
      if (!choice) {
        done({
          ...base,
          ...conflictInfo,
          status: 'conflict',
          libraryName: name,
          dir: dest,
          ...worded(says('import.conflict', { name })),
        });
        return;
      }
      if (choice === 'skip') {
        done({ ...base, ...conflictInfo, status: 'skipped', libraryName: name, dir: dest });
        return;
      }
      if (choice === 'replace') {
        // The new copy is made ready first; the old one goes to the trash only then, right before
        // the new one takes its place (a crash in between is rolled back from the write-ahead log).
        let trashId: string | undefined;
        const r = await place(c, name, () => {
          const trashed = moveToTrash(ctx, name, 'replaced', opts.wal);
          changes.push(...trashed.changes);
          trashId = trashed.entry.id;
        });
        if (!r.ok) {
          done(refused(c.source, r.msg, f));
          return;
        }
        names.push(name);
        done({ ...base, ...conflictInfo, status: 'replaced', libraryName: name, dir: dest, trashId: trashId! });
        return;
      }
      // keep-both
      if (c.mode === 'link') {
        done(refused(c.source, says('import.keep-both-link'), f));
        return;
      }
      let n = 2;
      while (lstatOrNull(path.join(lib, `${name}-${n}`)) || claimed.has(`${name}-${n}`)) n++;
      const fresh = `${name}-${n}`;
      const r = await place(c, fresh);
      if (!r.ok) {
        done(refused(c.source, r.msg, f));
        return;
      }
      claimed.add(fresh);
      names.push(fresh);
      const digest = (await skillFacts(ctx, path.join(lib, fresh), fresh)).digest;
      done({ ...base, ...conflictInfo, digest, status: 'kept-both', libraryName: fresh, dir: path.join(lib, fresh) });
    };

    for (const c of candidates) {
      const mark = changes.length;
      const before = results.length;
      try {
        await importOne(c);
      } catch (err) {
        // An unexpected disk error: take back this skill's partial changes, newest first, so the
        // library is as it was before it; the rest of the batch goes on.
        const kept: JournalChange[] = [];
        for (const ch of changes.splice(mark).reverse()) {
          try {
            revertChange(ch);
          } catch {
            kept.unshift(ch);
          }
        }
        changes.push(...kept);
        results.splice(before);
        for (const n of names.splice(0)) if (lstatOrNull(path.join(lib, n))) names.push(n);
        results.push(refused(c.source, says('import.failed', { reason: (err as Error).message }), c.facts));
        progress.skillsDone++;
        progress.emit(undefined, true);
      }
    }
    return { results, changes, names };
  } finally {
    if (stagingMade) {
      removeTreeSafely(staging);
      try {
        fs.rmdirSync(stagingRoot);
      } catch {
        // not empty: another process is staging too
      }
    }
  }
}
