import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type {
  AdoptableSkill,
  ConflictChoice,
  ImportResult,
  HistoryEntry,
  ImportSummary,
  JournalChange,
  JournalEntry,
  LibraryMode,
  LibrarySkill,
  MessageRef,
  TrashEntry,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { allAgents, expandHome, findAgent } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { getCatalog } from '../catalog/index.js';
import { libraryLock, libraryNames, readJournal, readJournalChecked, salvageJournal, undoHandler, DAMAGED_OP } from './journal.js';
import { readPending, type WriteAhead } from './wal.js';
import { recoverLocked, runJournaled } from './recover.js';
import { redoLocked, type ActDone } from './undo.js';
import { undoSettling } from './undo-settle.js';
import { historyView, readOperations } from './operations.js';
import { runImport, type Announce, type ImportSource } from './import.js';
import { recordOrigins } from './origins.js';
import { followLibrary } from './followers.js';
import { skillFacts, unsafeFolderName } from './analyze.js';
import { libraryDir, listTrash, moveToTrash, restoreFromTrash } from './trash.js';
import { isInside } from '../base/extpath.js';
import { lstatOrNull, removeNoFollow } from './tree.js';
import type { ArchiveLimits } from './archive.js';
import { selectNames, type Selection } from '../base/select.js';
import { exportOne, type ExportOne } from './export.js';
import { importOp } from '../contract/operation-what.js';
import type { Api } from '../contract/index.js';

type DoctorReport = Awaited<ReturnType<Api['doctor']>>;

/**
 * More an import's caller changes on disk in the same operation (sources/ stores the upstream
 * files it installed): made under the lock, announced to `wal`, returned as changes of the same
 * journal entry, so undo reverts them with the import.
 */
export type AfterImport = (results: ImportResult[], wal: Announce) => JournalChange[];

export interface ResolutionInput {
  onConflict?: ConflictChoice;
  resolutions?: Record<string, ConflictChoice>;
}

type DeleteOne = { name: string; trashId: string; mode: LibraryMode };

function summarize(results: ImportResult[], journalId?: string): ImportSummary {
  return {
    results,
    conflicts: results.filter((r) => r.status === 'conflict').length,
    refused: results.filter((r) => r.status === 'refused').length,
    ...(journalId ? { journalId } : {}),
  };
}

/** `pdf (imported)` for a few skills, `200 skills (200 imported)` for a batch. */
function describeBatch(changed: ImportResult[]): string {
  if (changed.length <= 5) return changed.map((x) => `${x.libraryName} (${x.status})`).join(', ');
  const tally = new Map<string, number>();
  for (const x of changed) tally.set(x.status, (tally.get(x.status) ?? 0) + 1);
  return `${changed.length} skills (${[...tally].map(([k, v]) => `${v} ${k}`).join(', ')})`;
}

export class LibraryService {
  /** Archive caps; tests and callers may lower them. */
  archiveLimits: Partial<ArchiveLimits> = {};

  constructor(private ctx: ServiceContext) {}

  get dir(): string {
    return libraryDir(this.ctx);
  }

  private agents() {
    return allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents);
  }

  /** After any change: tell the catalog (if it is up) and every front door. */
  private async changed(op: string, names: string[], extraDirs: string[] = []): Promise<void> {
    if (names.length === 0 && extraDirs.length === 0) return;
    try {
      await getCatalog(this.ctx).refresh([...names.map((n) => path.join(this.dir, n)), ...extraDirs, this.dir]);
    } catch {
      // the catalog notices on its next scan
    }
    this.ctx.events.emit({ type: 'library-changed', names, op });
  }

  private async importSources(
    sources: ImportSource[],
    res: ResolutionInput,
    op: string,
    importId?: string,
    after?: AfterImport,
  ): Promise<ImportSummary> {
    const id = importId ?? randomBytes(6).toString('hex');
    const run = await this.locked(op, async (wal) => {
      const r = await runImport(this.ctx, sources, { ...res, importId: id, limits: this.archiveLimits, wal });
      if (r.changes.length === 0) return { ...r, journalId: undefined };
      const changedSkills = r.results.filter((x) => ['imported', 'replaced', 'kept-both'].includes(x.status));
      const extra = after ? after(r.results, wal) : [];
      // copies deployed to agents' folders get the new version in the same operation
      const replaced = r.results.filter((x) => x.status === 'replaced' && x.libraryName).map((x) => x.libraryName!);
      extra.push(...followLibrary(this.ctx, wal, { op: 'update', names: replaced }));
      const entry = wal.commit({
        op: importOp(
          r.results.map((x) => x.status),
          op,
        ),
        summary: describeBatch(changedSkills),
        changes: [...r.changes, ...extra],
        skills: changedSkills.map((x) => ({ name: x.libraryName, status: x.status, source: x.source })),
      });
      recordOrigins(this.ctx, r.results, op, entry.id); // where each came from, for the skill's provenance
      return { ...r, journalId: entry.id };
    });
    await this.changed(op, run.names);
    return summarize(run.results, run.journalId);
  }

  importPaths(input: { paths: string[]; importId?: string; after?: AfterImport } & ResolutionInput): Promise<ImportSummary> {
    return this.importSources(
      input.paths.map((p) => ({ path: p, mode: 'copy' as const })),
      input,
      'import',
      input.importId,
      input.after,
    );
  }

  async list(): Promise<LibrarySkill[]> {
    let names: string[];
    try {
      names = fs
        .readdirSync(this.dir)
        .filter((n) => !n.startsWith('.'))
        .sort();
    } catch {
      return [];
    }
    const out: LibrarySkill[] = [];
    for (const dirName of names) {
      const dir = path.join(this.dir, dirName);
      const st = lstatOrNull(dir);
      if (!st) continue;
      const linked = st.isSymbolicLink();
      const linkTarget = linked ? fs.readlinkSync(dir) : undefined;
      const target = fs.statSync(dir, { throwIfNoEntry: false });
      if (!linked && !st.isDirectory()) continue;
      const base = { dirName, dir, mode: (linked ? 'link' : 'copy') as LibraryMode, ...(linkTarget ? { linkTarget } : {}) };
      if (!target?.isDirectory()) {
        out.push({ ...base, name: dirName, broken: true, diagnostics: [] });
        continue;
      }
      const f = await skillFacts(this.ctx, dir, dirName);
      out.push({
        ...base,
        name: f.name ?? dirName,
        broken: false,
        digest: f.digest,
        ...(f.description ? { description: f.description } : {}),
        diagnostics: f.diagnostics,
      });
    }
    return out;
  }

  /** Agents' user roots, each with the agents that read it. */
  private userRoots(agentId?: string): { root: string; agents: string[] }[] {
    const byRoot = new Map<string, string[]>();
    for (const a of this.agents()) {
      if (agentId && a.id !== agentId) continue;
      for (const d of a.userDirs) {
        const root = path.resolve(expandHome(d, this.ctx.paths.userHome));
        byRoot.set(root, [...(byRoot.get(root) ?? []), a.id]);
      }
    }
    return [...byRoot].map(([root, agents]) => ({ root, agents }));
  }

  async listAdoptable(agentId?: string): Promise<AdoptableSkill[]> {
    if (agentId && !this.agents().some((a) => a.id === agentId)) throw fail('not-found', 'library.unknown-agent', { agent: agentId });
    const libReal = fs.existsSync(this.dir) ? fs.realpathSync(this.dir) : this.dir;
    const out: AdoptableSkill[] = [];
    for (const { root, agents } of this.userRoots(agentId)) {
      let kids: string[];
      try {
        kids = fs
          .readdirSync(root)
          .filter((n) => !n.startsWith('.'))
          .sort();
      } catch {
        continue;
      }
      for (const dirName of kids) {
        const p = path.join(root, dirName);
        const st = lstatOrNull(p);
        let real: string;
        try {
          real = fs.realpathSync(p);
          if (!fs.statSync(p).isDirectory() || !fs.existsSync(path.join(p, 'SKILL.md'))) continue;
        } catch {
          continue;
        }
        if (isInside(real, libReal)) continue; // exported from the library: already ours
        const f = await skillFacts(this.ctx, p, dirName);
        let inLibrary: AdoptableSkill['inLibrary'] = 'no';
        const libEntry = f.name ? path.join(this.dir, f.name) : undefined;
        if (libEntry && lstatOrNull(libEntry)) {
          let libReal2: string;
          try {
            libReal2 = fs.realpathSync(libEntry);
          } catch {
            libReal2 = '';
          }
          if (libReal2 === real) inLibrary = 'linked';
          else {
            const d = await skillFacts(this.ctx, libEntry, f.name!)
              .then((x) => x.digest)
              .catch(() => '');
            inLibrary = d === f.digest ? 'same' : 'different';
          }
        }
        out.push({
          path: p,
          name: f.name,
          dirName,
          root,
          agents,
          digest: f.digest,
          inLibrary,
          isLink: !!st?.isSymbolicLink(),
          diagnostics: f.diagnostics,
        });
      }
    }
    return out;
  }

  async adopt(items: { path: string; mode: LibraryMode }[], res: ResolutionInput): Promise<ImportSummary> {
    const roots = this.userRoots().map((r) => r.root);
    for (const item of items) {
      const abs = path.resolve(item.path);
      if (!roots.includes(path.dirname(abs))) {
        throw fail('refused', 'library.not-adoptable', { path: abs, roots });
      }
    }
    return this.importSources(
      items.map((i) => ({ path: path.resolve(i.path), mode: i.mode })),
      res,
      'adopt',
    );
  }

  private checkName(name: string): string {
    const bad = unsafeFolderName(name);
    if (bad) throw fail('bad-request', 'library.bad-name', { name, problem: bad });
    return path.join(this.dir, name);
  }

  /** Library folder names (the candidates a glob or `--all` picks from). */
  private names(): string[] {
    try {
      return fs
        .readdirSync(this.dir)
        .filter((n) => !n.startsWith('.'))
        .sort();
    } catch {
      return [];
    }
  }

  /** The library skills `sel` names (globs matched against the library's names). */
  select(sel: Selection): string[] {
    const names = selectNames(this.names(), sel, 'library');
    for (const n of names) this.checkName(n);
    return names;
  }

  async delete(name: string): Promise<DeleteOne & { journalId: string }> {
    const r = await this.deleteMany({ names: [name] });
    return { ...r.results[0]!, journalId: r.journalId! };
  }

  /**
   * Move every named skill to the trash in one operation: one journal entry, one undo. A name that
   * is not in the library refuses the whole operation before anything moves.
   */
  async deleteMany(sel: Selection): Promise<{ results: DeleteOne[]; journalId?: string }> {
    const names = this.select(sel);
    if (!names.length) return { results: [] };
    const out = await this.locked('delete', async (wal) => {
      for (const name of names) if (!lstatOrNull(path.join(this.dir, name))) throw fail('not-found', 'library.not-found', { name });
      const results: DeleteOne[] = [];
      const changes: JournalChange[] = [];
      for (const name of names) {
        const moved = moveToTrash(this.ctx, name, 'deleted', wal);
        changes.push(...moved.changes);
        results.push({ name, trashId: moved.entry.id, mode: moved.entry.mode });
      }
      // links and copies deployed to agents' folders go with them (undo brings them back together)
      changes.push(...followLibrary(this.ctx, wal, { op: 'delete', names }));
      const summary = names.length === 1 ? `${names[0]} moved to the trash` : `${names.length} skills moved to the trash`;
      const j = wal.commit({ op: 'delete', summary, changes, skills: names.map((name) => ({ name })) });
      return { results, journalId: j.id };
    });
    await this.changed('delete', names);
    return out;
  }

  listTrash(): TrashEntry[] {
    return listTrash(this.ctx);
  }

  async restore(id: string, as?: string): Promise<{ name: string; dir: string; journalId: string }> {
    const r = await this.restoreMany({ ids: [id], ...(as !== undefined ? { as } : {}) });
    return { ...r.results[0]!, journalId: r.journalId! };
  }

  /**
   * Restore trash entries in one operation: by trash id, or by name or glob (the newest entry of
   * each name). `as` only with a single entry. One journal entry, one undo.
   */
  async restoreMany(input: { ids?: string[]; names?: string[]; all?: boolean; as?: string }): Promise<{
    results: Array<{ name: string; dir: string; trashId: string }>;
    journalId?: string;
  }> {
    if (input.as !== undefined) this.checkName(input.as);
    const items = listTrash(this.ctx); // newest first
    const ids = [...(input.ids ?? [])];
    if (input.names?.length || input.all) {
      const byName = new Map<string, string>();
      for (const t of items) if (!byName.has(t.name)) byName.set(t.name, t.id);
      for (const n of selectNames([...byName.keys()], { names: input.names ?? [], all: input.all ?? false }, 'trash')) {
        const id = byName.get(n) ?? items.find((t) => t.id === n)?.id;
        if (!id) throw fail('not-found', 'trash.not-found', { id: n });
        ids.push(id);
      }
    }
    const unique = [...new Set(ids)];
    if (!unique.length) return { results: [] };
    if (input.as !== undefined && unique.length > 1) throw fail('bad-request', 'select.as-one', { count: unique.length });
    const out = await this.locked('restore', async (wal) => {
      const results: Array<{ name: string; dir: string; trashId: string }> = [];
      const changes: JournalChange[] = [];
      // restored under another name: its deployments follow it to the new name
      const renamed: Record<string, string> = {};
      for (const id of unique) {
        const r = restoreFromTrash(this.ctx, id, input.as, wal);
        changes.push(...r.changes);
        const name = input.as ?? r.entry.name;
        if (name !== r.entry.name) renamed[r.entry.name] = name;
        results.push({ name, dir: r.dir, trashId: id });
      }
      const names = results.map((x) => x.name);
      changes.push(...followLibrary(this.ctx, wal, { op: 'restore', names, ...(Object.keys(renamed).length ? { renamed } : {}) }));
      const first = results[0]!;
      const summary =
        results.length > 1
          ? `${results.length} skills restored from the trash`
          : input.as
            ? `${items.find((t) => t.id === first.trashId)?.name ?? first.name} restored from the trash as ${input.as}`
            : `${first.name} restored from the trash`;
      const j = wal.commit({ op: 'restore', summary, changes, skills: names.map((name) => ({ name })) });
      return { results, journalId: j.id };
    });
    await this.changed(
      'restore',
      out.results.map((x) => x.name),
    );
    return out;
  }

  async export(input: { name: string; agent: string; mode: LibraryMode; root?: string }): Promise<ExportOne & { journalId?: string }> {
    const r = await this.exportMany({ ...input, names: [input.name] });
    return { ...r.results[0]!, ...(r.journalId ? { journalId: r.journalId } : {}) };
  }

  /**
   * Put library skills into an agent's user skills folder (copies or links) in one operation: one
   * journal entry, one undo. A skill already there (the same link, or an identical copy) is
   * reported `already-present`; anything else in the way refuses the whole operation.
   */
  async exportMany(input: Selection & { agent: string; mode: LibraryMode; root?: string }): Promise<{
    results: ExportOne[];
    journalId?: string;
  }> {
    const names = this.select(input);
    const agent = findAgent(this.ctx.paths.resourcesDir, input.agent, getSettings(this.ctx).get().customAgents);
    if (!agent) throw fail('not-found', 'library.unknown-agent', { agent: input.agent });
    const roots = agent.userDirs.map((d) => path.resolve(expandHome(d, this.ctx.paths.userHome)));
    if (roots.length === 0) throw fail('unsupported', 'export.no-user-folder', { agent: agent.name });
    const root = input.root ? path.resolve(expandHome(input.root, this.ctx.paths.userHome)) : roots[0]!;
    if (!roots.includes(root)) throw fail('bad-request', 'export.bad-root', { root, agent: agent.name, roots });
    if (!names.length) return { results: [] };
    const out = await this.locked('export', async (wal) => {
      const changes: JournalChange[] = [];
      const results: ExportOne[] = [];
      for (const name of names) results.push(await exportOne(this.ctx, wal, { name, mode: input.mode, root }, changes));
      const made = results.filter((r) => r.status === 'exported');
      if (!made.length) return { results };
      const summary =
        made.length === 1 ? `${made[0]!.name} to ${made[0]!.path} (${input.mode})` : `${made.length} skills to ${root} (${input.mode})`;
      const j = wal.commit({ op: 'export', summary, changes, agent: agent.id, skills: made.map((r) => ({ name: r.name })) });
      return { results, journalId: j.id };
    });
    const paths = out.results.filter((r) => r.status === 'exported').map((r) => r.path);
    if (paths.length) await this.changed('export', [], paths);
    return out;
  }

  /** Run `fn` under the library lock on the one write-ahead path (src/library/recover.ts). */
  private locked<R>(op: string, fn: (wal: WriteAhead) => Promise<R>): Promise<R> {
    return runJournaled(this.ctx, op, fn);
  }

  /** What a crash or a failed operation left behind, and with `repair`, put right. */
  async doctor(repair: boolean): Promise<DoctorReport> {
    return libraryLock(this.ctx).runAsync(async () => {
      const pending = readPending(this.ctx);
      const committed = !!pending?.id && readJournal(this.ctx).some((e) => e.id === pending.id);
      const damaged = readJournalChecked(this.ctx).damagedLines;
      // Repair settles the interrupted operation first: what it had half built is then gone too.
      const r = repair ? await recoverLocked(this.ctx) : null;
      const salvaged = repair ? salvageJournal(this.ctx) : null;
      const staging = path.join(this.ctx.paths.home, 'staging', 'import');
      const staleStaging = fs.existsSync(staging) ? fs.readdirSync(staging).map((n) => path.join(staging, n)) : [];
      const trash = path.join(this.ctx.paths.home, 'trash');
      const listed = new Set(listTrash(this.ctx).map((t) => t.id));
      const incompleteTrash = fs.existsSync(trash)
        ? fs
            .readdirSync(trash)
            .filter((n) => !listed.has(n))
            .map((n) => path.join(trash, n))
        : [];
      const report: DoctorReport = {
        interrupted: pending ? { op: pending.op, time: pending.time, changes: pending.changes.length, committed } : null,
        staleStaging,
        incompleteTrash,
        corruptFiles: this.ctx.events.corruptFound.map(({ file, movedTo, reason, reasonCode, recoveredFrom }) => ({
          file,
          movedTo,
          reason,
          reasonCode,
          recoveredFrom,
        })),
        repaired: repair,
        rolledBack: r
          ? {
              op: r.op,
              undone: r.outcome === 'committed' ? 0 : r.undone,
              failed: r.outcome === 'committed' ? [] : r.failed,
              outcome: r.outcome,
            }
          : null,
        journalDamage: damaged.length
          ? {
              lines: damaged,
              keptAt: salvaged?.keptAt ?? null,
              msg: salvaged
                ? { key: 'journal.damaged-kept', params: { lines: damaged, keptAt: salvaged.keptAt } }
                : { key: 'journal.damaged', params: { lines: damaged } },
            }
          : null,
      };
      // Staging holds only copies being prepared (under this lock nobody is): safe to sweep.
      if (repair) for (const s of staleStaging) removeNoFollow(s);
      return report;
    });
  }

  /** Undo one operation: `id`, else the newest in effect (a crash's leftovers are settled first). */
  async undo(id?: string): Promise<{ undone: JournalEntry; what: MessageRef; message: string; journalId: string }> {
    const r = await libraryLock(this.ctx).runAsync(() => undoSettling(this.ctx, id));
    await this.afterAct(r);
    return { undone: r.target, what: r.what, message: r.message, journalId: r.entry.id };
  }

  /** Redo one undone operation: `id`, else the one undone last. */
  async redo(id?: string): Promise<{ redone: JournalEntry; what: MessageRef; message: string; journalId: string }> {
    const r = await libraryLock(this.ctx).runAsync(async () => {
      await recoverLocked(this.ctx);
      return redoLocked(this.ctx, id);
    });
    await this.afterAct(r);
    return { redone: r.target, what: r.what, message: r.message, journalId: r.entry.id };
  }

  /** Tell everyone what an undo or redo changed, in the library and in agents' folders. */
  private async afterAct(r: ActDone): Promise<void> {
    const touched = [...(r.target.changes ?? []), ...(r.entry.changes ?? [])];
    const outside = touched
      .flatMap((c) => (c.kind === 'moved' ? [c.from, c.to] : [c.path]))
      .filter((p) => !isInside(p, this.ctx.paths.home));
    await this.changed(r.entry.op, libraryNames(this.ctx, touched), outside);
  }

  journal(limit = 50): { entries: HistoryEntry[]; warnings?: MessageRef[] } {
    const read = readJournalChecked(this.ctx);
    const ops = readOperations(this.ctx, read.entries);
    const undoable = (e: JournalEntry) => Boolean(undoHandler(this.ctx, e.op)) || Boolean(e.changes?.length);
    const entries = historyView(this.ctx, ops, read.entries.slice(-limit).reverse(), undoable);
    const setAside = read.entries.filter((e) => e.op === DAMAGED_OP && !read.damagedLines.includes(Number(e.line)));
    const warnings: MessageRef[] = [];
    if (read.damagedLines.length) warnings.push({ key: 'journal.damaged', params: { lines: read.damagedLines } });
    for (const e of setAside) if (e.msg) warnings.push(e.msg as MessageRef);
    return { entries, ...(warnings.length ? { warnings } : {}) };
  }
}

export function getLibrary(ctx: ServiceContext): LibraryService {
  return ctx.use('library', () => new LibraryService(ctx));
}
