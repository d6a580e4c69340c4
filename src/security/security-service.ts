import os from 'node:os';
import path from 'node:path';
import type {
  Approval,
  ApprovalDiff,
  ApprovalStatus,
  CatalogEntry,
  CatalogQuery,
  FileChange,
  Inventory,
  JournalEntry,
  MessageKey,
  MessageRef,
  ScanReport,
  SkillRef,
  SkillRisks,
  SkillTrust,
  TrustFile,
} from '../contract/index.js';
import { formatMessage } from '../contract/index.js';
import { getCatalog } from '../catalog/index.js';
import { registerUndoHandler, type JournalInput } from '../library/journal.js';
import { selectNames } from '../base/select.js';
import { runJournaled } from '../library/recover.js';
import { SkillDockError, fail } from '../errors.js';
import type { ServiceContext } from '../service-context.js';
import { getSettings } from '../settings/settings.js';
import { ApprovalStore } from './approvals.js';
import {
  claudeBashHook,
  contextNote,
  decide,
  denyPatterns,
  type DeniedSkill,
  type LaunchDecision,
  type LaunchSkillDecision,
  type OnUnapproved,
} from './launch-guard.js';
import { scanPaths } from './scan.js';
import { inventoryOf, loadSkillSource, type SkillSource } from './surface.js';
import { SurfaceCache } from './surface-cache.js';
import { RiskCache } from './risks.js';

// The security domain: inventories, scans, approvals pinned to the surface digest, and the
// verdicts attach and launch ask for. Every front door reaches it through `getSecurity(ctx)`.

export const JOURNAL_APPROVE = 'scripts-approve';
export const JOURNAL_REVOKE = 'scripts-revoke';

/** Why a changed file shows no line diff, in English (`note`, the CLI's) and as a message (`noteMsg`, the window's). */
function noteOn(change: FileChange, key: MessageKey): void {
  change.noteMsg = { key };
  change.note = formatMessage(change.noteMsg);
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

interface Surface {
  name: string;
  dir: string;
  inv: Inventory;
}

interface Resolved extends Surface {
  src: SkillSource;
}

interface ApproveItem {
  skill: string;
  digest: string;
  previous?: Approval | null;
  approval?: Approval;
}

/** The approvals an approve entry made: `items` of a bulk approval, else the entry itself. */
function approveItems(entry: JournalEntry): ApproveItem[] {
  if (Array.isArray(entry.items)) return (entry.items as ApproveItem[]).map((it) => ({ ...it }));
  return [
    {
      skill: String(entry.skill),
      digest: String(entry.digest),
      previous: entry.previous as Approval | null | undefined,
      approval: entry.approval as Approval | undefined,
    },
  ];
}

export class SecurityService {
  readonly approvals: ApprovalStore;
  /** Inventories of catalog entries, reused while the folder is provably unchanged (surface-cache.ts). */
  readonly surfaces = new SurfaceCache<Surface>();
  /** Scan results of catalog entries, per real folder and content digest (risks.ts). */
  readonly risks = new RiskCache();

  constructor(private readonly ctx: ServiceContext) {
    this.approvals = new ApprovalStore(ctx);
    ctx.onClose(() => {
      this.surfaces.clear();
      this.risks.clear();
    });
  }

  policy() {
    return getSettings(this.ctx).trustedScriptPolicy();
  }

  /** approvals.json and settings.json: each as SkillDock last wrote it, or changed by something else (trust-seal.ts). */
  trustFiles(): TrustFile[] {
    const approvals = this.approvals.sealStatus();
    return [
      { file: 'approvals.json', status: approvals },
      { file: 'settings.json', status: getSettings(this.ctx).sealStatus() },
    ];
  }

  /** The user confirms a changed file as it is now: it is trusted again. */
  confirmTrustFile(file: TrustFile['file']): TrustFile {
    if (file === 'approvals.json') this.approvals.confirmFile();
    else getSettings(this.ctx).confirmFile();
    return this.trustFiles().find((f) => f.file === file)!;
  }

  scan(paths: string[], cwd?: string): ScanReport {
    return scanPaths(paths, cwd);
  }

  /** What the scan finds in each entry of a catalog (list badges, filters, the approval prompt). */
  async catalogRisks(query: CatalogQuery): Promise<SkillRisks> {
    const catalog = await getCatalog(this.ctx).list(query);
    return { generation: catalog.generation, skills: await this.risks.of(catalog.entries) };
  }

  private async resolve(ref: SkillRef): Promise<Resolved> {
    if (ref.dir) {
      const src = loadSkillSource(path.resolve(ref.dir));
      if (!src.skillFile) throw fail('not-found', 'skill-ref.no-skill-file', { path: src.folder.dir });
      return { name: src.name, dir: src.folder.dir, src, inv: inventoryOf(src) };
    }
    if (!ref.name) throw fail('bad-request', 'skill-ref.empty');
    const entry = await getCatalog(this.ctx).get(ref.name, ref.project ? { project: ref.project } : {});
    return this.resolveEntry(entry);
  }

  private resolveEntry(entry: CatalogEntry, beforeList?: (abs: string) => void): Resolved {
    const src = loadSkillSource(entry.provenance.realPath, { beforeList });
    return { name: entry.name, dir: src.folder.dir, src, inv: inventoryOf(src) };
  }

  /** Roots the catalog keeps fresh from file events (read once per batch of entries). */
  private watchedRoots(): Set<string> {
    return new Set(getCatalog(this.ctx).watching());
  }

  /**
   * The entry's surface without the file texts, for the checks every launch and attach makes:
   * cached per real folder and catalog digest (surface-cache.ts).
   */
  private surfaceOfEntry(entry: CatalogEntry, watched = this.watchedRoots()): Surface {
    const { realPath, rootPath } = entry.provenance;
    return this.surfaces.get(realPath, entry.digest, watched.has(rootPath), (beforeList) => {
      const { name, dir, inv } = this.resolveEntry(entry, beforeList);
      return { name, dir, inv };
    });
  }

  async inventory(ref: SkillRef): Promise<Inventory> {
    return (await this.resolve(ref)).inv;
  }

  /** Inventory of a catalog entry (for `show --json` and the skill drawer). */
  inventoryOfEntry(entry: CatalogEntry): Inventory {
    return this.surfaceOfEntry(entry).inv;
  }

  /** `known`: policy and approvals read once by a caller checking many skills. */
  private trustOf(r: Surface, known?: { policy: ReturnType<SecurityService['policy']>; approvals: Map<string, Approval> }): SkillTrust {
    const approval = known ? (known.approvals.get(r.name) ?? null) : this.approvals.get(r.name);
    const policy = known?.policy ?? this.policy();
    const status: ApprovalStatus = !r.inv.hasExecutableSurface
      ? 'no-surface'
      : approval?.digest === r.inv.digest
        ? 'approved'
        : approval
          ? 'changed'
          : 'unapproved';
    const d = decide(policy, status, 'skip');
    return {
      name: r.name,
      dir: r.dir,
      policy,
      status,
      digest: r.inv.digest,
      approvedDigest: approval?.digest ?? null,
      approval,
      scriptsAllowed: d.scriptsAllowed,
      needsApproval: policy === 'ask' && (status === 'unapproved' || status === 'changed'),
    };
  }

  /**
   * For each folder of `dirs`, its trust when its scripts wait for an approval under the current
   * policy, else null (deploying many at once): the policy and the approvals are read once, and no
   * folder is read at all when the policy asks for no approval.
   */
  awaitingApproval(dirs: string[]): Array<SkillTrust | null> {
    const policy = this.policy();
    if (policy !== 'ask') return dirs.map(() => null);
    const known = { policy, approvals: new Map(this.approvals.list().map((a) => [a.name, a])) };
    return dirs.map((dir) => {
      const src = loadSkillSource(path.resolve(dir));
      if (!src.skillFile) throw fail('not-found', 'skill-ref.no-skill-file', { path: src.folder.dir });
      const t = this.trustOf({ name: src.name, dir: src.folder.dir, inv: inventoryOf(src) }, known);
      return t.needsApproval ? t : null;
    });
  }

  async trust(ref: SkillRef): Promise<SkillTrust> {
    return this.trustOf(await this.resolve(ref));
  }

  trustOfEntry(entry: CatalogEntry): SkillTrust {
    return this.trustOf(this.surfaceOfEntry(entry));
  }

  /** Approve the skill's executable surface as it is now; journaled with who, when and the digest. */
  async approve(ref: SkillRef, by = osUser()): Promise<SkillTrust> {
    const r = await this.resolve(ref);
    const approval: Approval = {
      name: r.name,
      dir: r.dir,
      digest: r.inv.digest,
      approvedAt: new Date().toISOString(),
      approvedBy: by,
      snapshot: this.approvals.snapshot(r.inv, r.src.folder),
    };
    await this.journaledApprovals(JOURNAL_APPROVE, (commit) => {
      const previous = this.approvals.put(approval);
      commit({
        op: JOURNAL_APPROVE,
        summary: `Approved the scripts of "${r.name}" (surface ${r.inv.digest.slice(0, 12)})`,
        skill: r.name,
        dir: r.dir,
        digest: r.inv.digest,
        approvedBy: by,
        previous,
        approval,
      });
    });
    this.ctx.events.emit({ type: 'approval-changed', name: r.name, action: 'approved', digest: r.inv.digest });
    return this.trustOf(r);
  }

  /**
   * Approve many skills in one operation: one journal entry (`items`, one per skill), one undo.
   * Names may be globs matched against the catalog's names; `all` takes every skill whose scripts
   * are not approved as they are now.
   */
  async approveMany(
    sel: { names?: string[]; all?: boolean; project?: string },
    by = osUser(),
  ): Promise<{ results: SkillTrust[]; journalId?: string }> {
    const opts = sel.project ? { project: sel.project } : {};
    const catalog = await getCatalog(this.ctx).list(opts);
    const pending = (e: CatalogEntry) => {
      const t = this.trustOfEntry(e);
      return t.status === 'unapproved' || t.status === 'changed';
    };
    const candidates = sel.all ? catalog.entries.filter(pending).map((e) => e.name) : catalog.entries.map((e) => e.name);
    const names = selectNames(candidates, { names: sel.names ?? [], all: sel.all ?? false }, 'catalog');
    const resolved = await Promise.all(names.map((name) => this.resolve({ name, ...opts })));
    if (!resolved.length) return { results: [] };
    const approvedAt = new Date().toISOString();
    const items = resolved.map((r) => ({
      approval: {
        name: r.name,
        dir: r.dir,
        digest: r.inv.digest,
        approvedAt,
        approvedBy: by,
        snapshot: this.approvals.snapshot(r.inv, r.src.folder),
      } satisfies Approval,
      previous: null as Approval | null,
    }));
    const journalId = await this.journaledApprovals(JOURNAL_APPROVE, (commit) => {
      for (const it of items) it.previous = this.approvals.put(it.approval) ?? null;
      if (items.length === 1) {
        const { approval, previous } = items[0]!;
        const { name, dir, digest } = approval;
        const summary = `Approved the scripts of "${name}" (surface ${digest.slice(0, 12)})`;
        return commit({ op: JOURNAL_APPROVE, summary, skill: name, dir, digest, approvedBy: by, previous, approval }).id;
      }
      return commit({
        op: JOURNAL_APPROVE,
        summary: `Approved the scripts of ${items.length} skills`,
        skills: items.map((it) => ({ name: it.approval.name })),
        approvedBy: by,
        items: items.map((it) => ({ skill: it.approval.name, digest: it.approval.digest, previous: it.previous, approval: it.approval })),
      }).id;
    });
    for (const { approval } of items)
      this.ctx.events.emit({ type: 'approval-changed', name: approval.name, action: 'approved', digest: approval.digest });
    return { results: resolved.map((r) => this.trustOf(r)), journalId };
  }

  async revoke(name: string, by = osUser()): Promise<boolean> {
    if (!this.approvals.get(name)) return false;
    const removed = await this.journaledApprovals(JOURNAL_REVOKE, (commit) => {
      const was = this.approvals.remove(name);
      if (was)
        commit({
          op: JOURNAL_REVOKE,
          summary: `Revoked the approval of "${name}"'s scripts`,
          skill: name,
          digest: was.digest,
          revokedBy: by,
          approval: was,
        });
      return was;
    });
    if (!removed) return false;
    this.ctx.events.emit({ type: 'approval-changed', name, action: 'revoked', digest: null });
    return true;
  }

  list(): Approval[] {
    return this.approvals.list();
  }

  /** What changed in the surface since it was approved (everything is "added" when never approved). */
  async diff(ref: SkillRef): Promise<ApprovalDiff> {
    const r = await this.resolve(ref);
    // jsdiff (15 KB) is loaded by the one command that shows a diff, not by every start of the engine.
    const { unifiedDiff } = await import('./diff.js');
    const trust = this.trustOf(r);
    const snap = trust.approval?.snapshot ?? { files: [], commands: [], hooks: null, allowedTools: null };
    const before = new Map(snap.files.map((f) => [f.path, f]));
    const now = new Map(r.inv.files.map((f) => [f.path, f]));
    const text = new Map(r.src.folder.files.map((f) => [f.rel, f.text]));
    const files: FileChange[] = [];
    for (const f of r.inv.files) {
      const old = before.get(f.path);
      if (!old) {
        const t = text.get(f.path);
        const diff = !f.binary && t !== undefined ? unifiedDiff('', t, { from: '/dev/null', to: f.path }) : null;
        files.push({ path: f.path, change: 'added', binary: f.binary, ...(diff ? { diff } : {}) });
      } else if (old.sha256 !== f.sha256) {
        const change: FileChange = { path: f.path, change: 'modified', binary: f.binary || old.binary };
        const oldText = old.kept ? this.approvals.blob(old.sha256) : null;
        const newText = text.get(f.path);
        if (change.binary) noteOn(change, 'security.diff-note.binary');
        else if (oldText === null) noteOn(change, 'security.diff-note.not-kept');
        else if (newText === undefined) noteOn(change, 'security.diff-note.too-large');
        else {
          const d = unifiedDiff(oldText, newText, { from: `approved/${f.path}`, to: `current/${f.path}` });
          if (d === null) noteOn(change, 'security.diff-note.too-large');
          else change.diff = d;
        }
        files.push(change);
      }
    }
    for (const f of snap.files) if (!now.has(f.path)) files.push({ path: f.path, change: 'removed', binary: f.binary });
    files.sort((a, b) => a.path.localeCompare(b.path));
    const nowCommands = r.inv.commands.map((c) => c.text);
    const count = (list: string[]) => list.reduce((m, c) => m.set(c, (m.get(c) ?? 0) + 1), new Map<string, number>());
    const beforeCount = count(snap.commands);
    const nowCount = count(nowCommands);
    const added = [...nowCount].filter(([c, n]) => n > (beforeCount.get(c) ?? 0)).map(([c]) => c);
    const removed = [...beforeCount].filter(([c, n]) => n > (nowCount.get(c) ?? 0)).map(([c]) => c);
    return {
      name: r.name,
      status: trust.status,
      approvedDigest: trust.approvedDigest,
      digest: r.inv.digest,
      files,
      commands: { added, removed },
      hooksChanged: JSON.stringify(snap.hooks ?? null) !== JSON.stringify(r.inv.hooks ?? null),
      allowedTools:
        (snap.allowedTools ?? null) !== r.inv.allowedTools ? { before: snap.allowedTools ?? null, after: r.inv.allowedTools } : null,
    };
  }

  /** May this skill be attached to an assistant now? */
  checkAttach(entry: CatalogEntry): { ok: boolean; trust: SkillTrust; reason?: string; msg?: MessageRef } {
    const trust = this.trustOfEntry(entry);
    if (!trust.needsApproval) return { ok: true, trust };
    const msg: MessageRef = {
      key: trust.status === 'changed' ? 'security.attach-changed' : 'security.attach-ask',
      params: { skill: trust.name },
    };
    // The CLI's English names the command; the window words `msg`, which does not.
    const reason = `${formatMessage(msg).replace(/\.$/, '')} (skilldock approve ${trust.name}).`;
    return { ok: false, trust, reason, msg };
  }

  /** Throw a `refused` error (with the trust record as details) unless the skill may be attached. */
  requireApproved(entry: CatalogEntry): SkillTrust {
    const c = this.checkAttach(entry);
    if (!c.ok)
      throw new SkillDockError('refused', c.reason!, { skill: c.trust.name, status: c.trust.status, digest: c.trust.digest }, c.msg);
    return c.trust;
  }

  /** Per skill: link it, link it without scripts, leave it out, or refuse the launch. */
  launchDecision(entries: CatalogEntry[], opts: { onChanged: OnUnapproved }): LaunchDecision {
    const policy = this.policy();
    const known = { policy, approvals: new Map(this.approvals.list().map((a) => [a.name, a])) };
    const skills: LaunchSkillDecision[] = [];
    const denied: DeniedSkill[] = [];
    const watched = this.watchedRoots();
    for (const entry of entries) {
      const r = this.surfaceOfEntry(entry, watched);
      const t = this.trustOf(r, known);
      const d = decide(policy, t.status, opts.onChanged);
      const blocked = d.action === 'link-no-scripts' ? { blocked: r.inv.files.map((f) => f.path) } : {};
      skills.push({ name: r.name, dir: r.dir, status: t.status, ...d, digest: t.digest, approvedDigest: t.approvedDigest, ...blocked });
      if (d.action === 'link-no-scripts') denied.push({ name: r.name, reason: d.reason!, patterns: denyPatterns(r.name, r.dir, r.inv) });
    }
    return { policy, skills, refused: skills.filter((s) => s.action === 'refuse'), contextNote: contextNote(skills), denied };
  }

  /** Throw when a launch decision refuses the launch. */
  assertLaunchable(decision: LaunchDecision): void {
    if (!decision.refused.length) return;
    const skills = decision.refused.map((s) => ({
      key: s.status === 'changed' ? 'security.refused-skill.changed' : 'security.refused-skill.unapproved',
      params: { name: s.name },
    }));
    const msg: MessageRef = { key: 'security.launch-refused', params: { skills } };
    const english = formatMessage(msg).replace('Approve them,', 'Approve them (skilldock approve <name>),');
    throw new SkillDockError('refused', english, { skills: decision.refused }, msg);
  }

  claudeBashHook(decision: LaunchDecision, kind?: string) {
    return claudeBashHook(decision.denied, kind);
  }

  /**
   * Change approvals.json on the one write-ahead path (src/library/recover.ts): its text before is
   * announced, so a crash between the file and its journal entry puts the file back.
   */
  private journaledApprovals<R>(op: string, fn: (commit: (entry: Omit<JournalInput, 'id'>) => JournalEntry) => R): Promise<R> {
    return runJournaled(this.ctx, op, (wal) => {
      const { file, content } = this.approvals.raw();
      wal.will({ kind: 'rewrote-file', path: file, content });
      return fn((entry) => wal.commit(entry));
    });
  }

  /** Undo and redo for the journal: approve ⇄ revoke, restoring exactly the previous approval. */
  registerUndo(): void {
    const changed = (name: string, approval: Approval | null | undefined) =>
      this.ctx.events.emit({ type: 'approval-changed', name, action: approval ? 'approved' : 'revoked', digest: approval?.digest ?? null });
    registerUndoHandler(this.ctx, JOURNAL_APPROVE, {
      undo: (entry) => {
        // a bulk approval holds one item per skill; undone newest first, each as a single one is
        const messages = approveItems(entry)
          .reverse()
          .map(({ skill: name, digest, previous: prev }) => {
            const current = this.approvals.get(name);
            if (current?.digest !== digest) return `The approval of "${name}" had already changed; nothing to undo.`;
            if (prev) this.approvals.put(prev);
            else this.approvals.remove(name);
            changed(name, prev);
            return prev ? `Restored the previous approval of "${name}".` : `Removed the approval of "${name}".`;
          });
        return { message: messages.join(' ') };
      },
      redo: (entry) => {
        const items = approveItems(entry);
        // entries written before approvals were kept whole cannot be redone
        const old = items.find((it) => !it.approval);
        if (old)
          throw fail('unsupported', 'journal.not-redoable', {
            what: { key: 'journal.what.scripts-approve-one', params: { name: old.skill } },
          });
        for (const it of items) {
          this.approvals.put(it.approval!);
          changed(it.skill, it.approval);
        }
        return { message: items.map((it) => `Approved the scripts of "${it.skill}" again.`).join(' ') };
      },
    });
    registerUndoHandler(this.ctx, JOURNAL_REVOKE, {
      undo: (entry) => {
        const approval = entry.approval as Approval | undefined;
        if (!approval) return { message: 'Nothing to restore.' };
        this.approvals.put(approval);
        changed(approval.name, approval);
        return { message: `Restored the approval of "${approval.name}".` };
      },
      redo: (entry) => {
        const name = String(entry.skill);
        if (this.approvals.get(name)?.digest !== entry.digest)
          return { message: `The approval of "${name}" had changed; nothing to revoke.` };
        this.approvals.remove(name);
        changed(name, null);
        return { message: `Revoked the approval of "${name}"'s scripts again.` };
      },
    });
  }
}

export function getSecurity(ctx: ServiceContext): SecurityService {
  return ctx.use('security', () => new SecurityService(ctx));
}
