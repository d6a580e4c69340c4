import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ApprovalSchema, type Approval, type Inventory, type SurfaceSnapshot } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { openStore, writeFileAtomic, type JsonStore } from '../store/index.js';
import type { SkillFolder } from './skill-files.js';
import { fail } from '../errors.js';
import { TrustSeal, type SealStatus } from '../store/trust-seal.js';

// `<home>/approvals.json`: one approval per skill name, pinned to the digest of its executable
// surface. The approved text of small surface files is kept as content-addressed blobs under
// `<home>/security/blobs/`, so a later change can be shown as a line diff.

const ApprovalsFileSchema = z.object({ approvals: z.array(ApprovalSchema) });
type ApprovalsFile = z.infer<typeof ApprovalsFileSchema>;

/** Text files up to this size are kept for diffs. */
const KEEP_BYTES = 256 * 1024;

export class ApprovalStore {
  private store: JsonStore<ApprovalsFile>;
  private blobDir: string;
  /** The parsed file, by its identity on disk (every launch asks; another process may approve or revoke). */
  private memo: { key: string; approvals: Approval[] } | null = null;
  /** What SkillDock last wrote here (trust-seal.ts): a file changed by anything else is trusted in nothing. */
  readonly seal: TrustSeal;

  constructor(ctx: ServiceContext) {
    this.seal = new TrustSeal(ctx.paths.home);
    this.store = openStore<ApprovalsFile>(ctx, 'approvals.json', {
      schema: ApprovalsFileSchema,
      version: 1,
      defaults: () => ({ approvals: [] }),
      // Damage to this file must not drop every approval: `.bak` is the last version written, verified.
      backup: 'written',
    });
    this.blobDir = path.join(ctx.paths.home, 'security', 'blobs');
  }

  /**
   * The approvals, sorted by name. Re-read and re-validated only when the file's inode, size, mtime
   * or ctime moved, so a launch pays one stat. The store only ever replaces the file by renaming a
   * new one over it, and the new file is created while the old one still holds its inode, so every
   * version has a different inode: no same-tick rewrite can look unchanged.
   */
  private current(): Approval[] {
    const st = fs.statSync(this.store.file, { throwIfNoEntry: false });
    const sealed = fs.statSync(this.seal.file, { throwIfNoEntry: false });
    const key = st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${sealed ? `${sealed.ino}:${sealed.mtimeMs}` : '-'}` : '';
    if (key && this.memo?.key === key) return this.memo.approvals;
    // Read first: a damaged file is replaced by the verified copy, which is what SkillDock wrote.
    const read = this.store.read().approvals;
    // Changed by something other than SkillDock: no approval in it counts until the user confirms the file.
    const approvals = this.sealStatus() === 'changed' ? [] : [...read].sort((a, b) => a.name.localeCompare(b.name));
    this.memo = key ? { key, approvals } : null;
    return approvals;
  }

  /** The file and its text as it is now (null: none yet), for the write-ahead log. */
  raw(): { file: string; content: string | null } {
    try {
      return { file: this.store.file, content: fs.readFileSync(this.store.file, 'utf8') };
    } catch {
      return { file: this.store.file, content: null };
    }
  }

  list(): Approval[] {
    return [...this.current()];
  }

  get(name: string): Approval | null {
    return this.current().find((a) => a.name === name) ?? null;
  }

  /** Save an approval (replacing the skill's previous one); returns the previous one. */
  put(approval: Approval): Approval | null {
    let previous: Approval | null = null;
    this.memo = null;
    this.sealedUpdate((file) => {
      previous = file.approvals.find((a) => a.name === approval.name) ?? null;
      return { approvals: [...file.approvals.filter((a) => a.name !== approval.name), approval] };
    });
    return previous;
  }

  remove(name: string): Approval | null {
    let removed: Approval | null = null;
    this.memo = null;
    this.sealedUpdate((file) => {
      removed = file.approvals.find((a) => a.name === name) ?? null;
      return { approvals: file.approvals.filter((a) => a.name !== name) };
    });
    return removed;
  }

  /** Whether approvals.json holds what SkillDock last wrote. */
  sealStatus(): SealStatus {
    return this.seal.status('approvals.json');
  }

  /** The user confirmed the file as it is: its approvals count again. */
  confirmFile(): void {
    this.memo = null;
    this.seal.seal('approvals.json');
  }

  /**
   * An update that keeps the seal: refused while the file holds what SkillDock did not write (saving
   * would seal whatever was put there along with the user's change), sealed after.
   */
  private sealedUpdate(fn: (file: ApprovalsFile) => ApprovalsFile): void {
    if (this.sealStatus() === 'changed') throw fail('refused', 'security.approvals-changed', { file: this.store.file });
    this.store.update(fn);
    this.seal.seal('approvals.json');
  }

  /** Keep the text of the surface's small text files; returns the snapshot to store. */
  snapshot(inv: Inventory, folder: SkillFolder): SurfaceSnapshot {
    const byRel = new Map(folder.files.map((f) => [f.rel, f]));
    const files = inv.files.map((sf) => {
      const f = byRel.get(sf.path);
      const keepable = f?.text !== undefined && f.size <= KEEP_BYTES;
      if (keepable) this.writeBlob(sf.sha256, f!.text!);
      return { path: sf.path, sha256: sf.sha256, size: sf.size, binary: sf.binary, kept: keepable };
    });
    return { files, commands: inv.commands.map((c) => c.text), hooks: inv.hooks, allowedTools: inv.allowedTools };
  }

  blob(sha: string): string | null {
    if (!/^[0-9a-f]{64}$/.test(sha)) return null;
    try {
      return fs.readFileSync(path.join(this.blobDir, sha), 'utf8');
    } catch {
      return null;
    }
  }

  private writeBlob(sha: string, text: string): void {
    const file = path.join(this.blobDir, sha);
    if (fs.existsSync(file)) return;
    writeFileAtomic(file, text);
  }
}
