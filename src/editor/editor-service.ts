import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import { randomBytes, createHash } from 'node:crypto';
import type {
  AgentListing,
  BufferLint,
  Diagnostic,
  ExportTarget,
  JournalChange,
  MessageRef,
  ScanFinding,
  RootKind,
  SkillFileContent,
  SkillFiles,
  SkillTemplate,
  TemplateWords,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { allAgents, expandHome, type AgentDef } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { getCatalog } from '../catalog/index.js';
import { listedDespiteFindings, loaderVerdict } from '../catalog/agent-view.js';
import { listSkill } from '../catalog/listing.js';
import { analyzeSkill, walkSkill, codePoints } from '../skills/index.js';
import { EDIT_MAX_BYTES, decodeText, resolveInSkill } from '../skills/edit-paths.js';
import { sha256Hex } from '../skills/walk.js';
import { getSecurity } from '../security/security-service.js';
import { dedupe, scanFile } from '../security/scan.js';
import { runJournaled } from '../library/recover.js';
import type { WriteAhead } from '../library/wal.js';
import { skillFacts, unsafeFolderName } from '../library/analyze.js';
import { libraryDir } from '../library/trash.js';
import { lstatOrNull, treeDigest } from '../library/tree.js';
import { templateFiles } from './templates.js';

// Writing skills from the editor: every read and write is confined to the skill's folder
// (src/skills/edit-paths.ts), only real library folders are written, a save replaces the file
// by rename (the old file is kept under `<home>/edits/<journal id>/` so undo can put it back),
// and a save made against an outdated copy is refused instead of losing the other change.

interface Located {
  /** The skill's identifier for messages. */
  skill: string;
  dir: string;
  dirName: string;
  rootKind: RootKind;
  linked: boolean;
  editable: boolean;
  readOnlyReason?: MessageRef;
}

/** sha256 of a file, streamed (a huge file is hashed, never held in memory). */
function hashFile(abs: string): string {
  const h = createHash('sha256');
  const fd = fs.openSync(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

/** The description as an agent keeps it, from its registry quirks (null: it lists none). */
function shownDescription(agent: AgentDef, description: string | null, body: string, fm: Record<string, unknown> | null): string | null {
  let text = description;
  if (text === null) {
    const missing = agent.quirks.missingDescription;
    if (missing === 'first-body-line')
      text =
        body
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim() ?? '';
    else if (missing === 'empty') text = '';
    else return null;
  }
  const cut = (s: string, max: number) => (codePoints(s) > max ? Array.from(s).slice(0, max).join('') : s);
  if (agent.quirks.descriptionOver1024 === 'cut') text = cut(text, 1024);
  const budget = agent.quirks.descriptionBudget;
  if (budget) {
    // The fields share one budget in their listed order; the description gets what is left.
    let left = budget.chars;
    for (const f of budget.includes) {
      if (f === 'description') {
        text = cut(text, Math.max(0, left));
        break;
      }
      const v = fm?.[f];
      if (typeof v === 'string') left -= codePoints(v);
    }
  }
  return text;
}

export class EditorService {
  constructor(private readonly ctx: ServiceContext) {}

  private get libDir(): string {
    return libraryDir(this.ctx);
  }

  /** A library folder name, or a catalog entry id (read-only unless it is in the library). */
  private async locate(skill: string): Promise<Located> {
    if (!skill.includes('/')) return this.locateLibrary(skill);
    const catalog = await getCatalog(this.ctx).list({});
    const e = catalog.entries.find((x) => x.id === skill);
    if (!e) throw fail('not-found', 'editor.skill-not-found', { skill });
    if (e.provenance.rootKind === 'library') return this.locateLibrary(e.dirName);
    return {
      skill: e.name,
      dir: e.provenance.realPath,
      dirName: e.dirName,
      rootKind: e.provenance.rootKind,
      linked: e.provenance.linked,
      editable: false,
      readOnlyReason: { key: 'editor.readonly.outside-library', params: { root: e.provenance.rootPath } },
    };
  }

  private locateLibrary(name: string): Located {
    const bad = unsafeFolderName(name);
    if (bad) throw fail('bad-request', 'library.bad-name', { name, problem: bad });
    const dir = path.join(this.libDir, name);
    const st = lstatOrNull(dir);
    if (!st) throw fail('not-found', 'editor.skill-not-found', { skill: name });
    const base = { skill: name, dirName: name, rootKind: 'library' as const };
    if (st.isSymbolicLink()) {
      const target = fs.readlinkSync(dir);
      return { ...base, dir, linked: true, editable: false, readOnlyReason: { key: 'editor.readonly.linked', params: { target } } };
    }
    if (!st.isDirectory()) throw fail('not-found', 'editor.skill-not-found', { skill: name });
    return { ...base, dir, linked: false, editable: true };
  }

  async listFiles(skill: string): Promise<SkillFiles> {
    const loc = await this.locate(skill);
    const walk = walkSkill(loc.dir);
    const files: SkillFiles['files'] = [...walk.dirs].map((p) => ({ path: p, kind: 'dir' as const, size: 0, executable: false }));
    for (const f of walk.files) {
      files.push(
        f.symlink !== undefined
          ? { path: f.path, kind: 'link', size: f.size, executable: false, linkTarget: f.symlink }
          : { path: f.path, kind: 'file', size: f.size, executable: f.executable },
      );
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return {
      name: loc.skill,
      dir: loc.dir,
      rootKind: loc.rootKind,
      editable: loc.editable,
      ...(loc.readOnlyReason ? { readOnlyReason: loc.readOnlyReason } : {}),
      files,
    };
  }

  async read(skill: string, rel: string, maxBytes?: number): Promise<SkillFileContent> {
    const loc = await this.locate(skill);
    const abs = resolveInSkill(loc.dir, rel, 'read');
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) throw fail('not-found', 'editor.path.not-found', { path: rel, skill: loc.skill });
    if (!st.isFile()) throw fail('refused', 'editor.path.not-file', { path: rel });
    if (maxBytes !== undefined && st.size > maxBytes) {
      // The viewer's limit: not even hashed, so a huge file costs one stat.
      const reason = { key: 'viewer.too-large', params: { kb: Math.ceil(st.size / 1024), maxKb: Math.floor(maxBytes / 1024) } };
      return { path: rel, content: null, hash: '', size: st.size, readOnly: true, readOnlyReason: reason };
    }
    const ro = loc.readOnlyReason ? { readOnly: true, readOnlyReason: loc.readOnlyReason } : { readOnly: false };
    if (st.size > EDIT_MAX_BYTES) {
      const reason = { key: 'editor.readonly.too-large', params: { size: st.size } };
      return { path: rel, content: null, hash: hashFile(abs), size: st.size, readOnly: true, readOnlyReason: reason };
    }
    const bytes = fs.readFileSync(abs);
    const text = decodeText(bytes);
    if (text === null) {
      return {
        path: rel,
        content: null,
        hash: sha256Hex(bytes),
        size: bytes.length,
        readOnly: true,
        readOnlyReason: { key: 'editor.readonly.binary' },
      };
    }
    return { path: rel, content: text, hash: sha256Hex(bytes), size: bytes.length, ...ro };
  }

  /** Lint unsaved SKILL.md text against the folder on disk, and how each agent would list it. */
  async lintBuffer(skill: string, content: string): Promise<BufferLint> {
    const loc = await this.locate(skill);
    const a = await analyzeSkill(loc.dir, {
      resourcesDir: this.ctx.paths.resourcesDir,
      dirName: loc.dirName,
      digest: false,
      skillText: content,
    });
    const agents: AgentListing[] = allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents).map((agent) => {
      const verdict = loaderVerdict(agent, a.diagnostics, loc.linked);
      const { reasons } = verdict;
      let status = verdict.status;
      let shown: string | null;
      if (agent.listing) {
        // Measured from the real CLI: listed as its model is shown it (budget aside: that needs the whole catalog).
        if (agent.listing.listsBroken && status === 'dropped' && listedDespiteFindings(agent, reasons)) status = 'mangled';
        const listed = status === 'dropped' ? null : listSkill(agent.listing, loc.dirName, content);
        shown = listed && !listed.hidden ? listed.description : null;
      } else shown = status === 'dropped' ? null : shownDescription(agent, a.description, a.body, a.frontmatter);
      const full = a.description ?? '';
      return {
        agent: { id: agent.id, name: agent.name },
        identifier: agent.identifier === 'dir' ? loc.dirName : (a.name ?? loc.dirName),
        status,
        reasons,
        description: shown,
        cut: shown !== null && a.description !== null ? Math.max(0, codePoints(full) - codePoints(shown)) : 0,
      };
    });
    return { name: a.name, description: a.description, diagnostics: a.diagnostics, agents };
  }

  /** Scan unsaved text as the security scan would scan the file once saved (its place decides script or prose). */
  async scanBuffer(skill: string, rel: string, content: string): Promise<{ findings: ScanFinding[] }> {
    const loc = await this.locate(skill);
    const abs = resolveInSkill(loc.dir, rel, 'read');
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    const bytes = Buffer.byteLength(content);
    const firstLine = content.slice(0, 200).split('\n', 1)[0];
    const findings = scanFile({
      rel,
      abs,
      size: bytes,
      executable: st ? (st.mode & 0o111) !== 0 : false,
      binary: false,
      sha256: '',
      text: content,
      ...(firstLine.startsWith('#!') ? { shebang: firstLine } : {}),
      tooLarge: bytes > EDIT_MAX_BYTES,
    });
    return { findings: dedupe(findings) };
  }

  private async approvalStatus(dir: string): Promise<string | null> {
    try {
      return (await getSecurity(this.ctx).trust({ dir })).status;
    } catch {
      return null;
    }
  }

  /** After a write: the catalog re-reads the skill and every front door hears of it. */
  private async changed(loc: Located, op: string): Promise<void> {
    try {
      await getCatalog(this.ctx).refresh([loc.dir]);
    } catch {
      // the catalog notices on its next scan
    }
    this.ctx.events.emit({ type: 'library-changed', names: [loc.dirName], op });
  }

  async save(
    skill: string,
    rel: string,
    content: string,
    expectedHash: string | null,
  ): Promise<{ path: string; hash: string; journalId?: string; needsApproval: boolean }> {
    const loc = await this.writable(skill);
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > EDIT_MAX_BYTES) throw fail('refused', 'editor.too-large', { size: bytes.length });
    const before = await this.approvalStatus(loc.dir);
    const out = await runJournaled(this.ctx, 'edit', (wal) => this.writeLocked(loc, rel, bytes, expectedHash, wal));
    if (!out.journalId) return { ...out, needsApproval: false };
    await this.changed(loc, 'edit');
    const after = await this.approvalStatus(loc.dir);
    return { ...out, needsApproval: before === 'approved' && after !== null && after !== 'approved' && after !== 'no-surface' };
  }

  private writeLocked(
    loc: Located,
    rel: string,
    bytes: Buffer,
    expectedHash: string | null,
    wal: WriteAhead,
  ): { path: string; hash: string; journalId?: string } {
    const abs = resolveInSkill(loc.dir, rel, 'write');
    const st = lstatOrNull(abs);
    if (st && !st.isFile()) throw fail('refused', 'editor.path.not-file', { path: rel });
    const current = st ? fs.readFileSync(abs) : null;
    const currentHash = current ? sha256Hex(current) : null;
    if (currentHash !== expectedHash) {
      throw fail(
        'conflict',
        'editor.changed-on-disk',
        { path: rel },
        { currentHash, currentContent: current ? decodeText(current) : null },
      );
    }
    const hash = sha256Hex(bytes);
    if (hash === currentHash) return { path: rel, hash };

    const id = wal.id;
    const changes: JournalChange[] = [];
    const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.skilldock-${randomBytes(4).toString('hex')}`);
    // Each step is announced first (write-ahead): a crash or a failure anywhere is rolled back whole.
    try {
      this.makeParents(loc, abs, changes, wal);
      wal.will({ kind: 'created', path: tmp });
      const fd = fs.openSync(tmp, 'wx', st ? st.mode & 0o777 : 0o644);
      try {
        fs.writeSync(fd, bytes);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      if (st) {
        // The old file stays whole where undo finds it: a hard link (same disk), else a copy.
        const kept = path.join(this.keepDir(id, changes, wal), path.basename(abs));
        wal.will({ kind: 'created', path: kept });
        try {
          fs.linkSync(abs, kept);
        } catch {
          fs.copyFileSync(abs, kept);
          fs.chmodSync(kept, st.mode & 0o777);
        }
        changes.push({ kind: 'moved', from: abs, to: kept });
        wal.will({ kind: 'replaced', path: abs, tmp, keptAt: kept });
      } else wal.will({ kind: 'moved', from: tmp, to: abs });
      fs.renameSync(tmp, abs);
    } catch (err) {
      const errno = (err as NodeJS.ErrnoException).code ?? 'EIO';
      throw fail('io', 'editor.save-failed', { path: rel, errno });
    }
    changes.push({ kind: 'created', path: abs, digest: treeDigest(abs) });
    const msg = { key: 'editor.saved', params: { path: rel, skill: loc.skill } };
    const entry = wal.commit({
      op: 'edit',
      summary: `Saved ${rel} of ${loc.skill}`,
      msg,
      changes,
      skills: [{ name: loc.dirName }],
    });
    return { path: rel, hash, journalId: entry.id };
  }

  /** A library skill that may be written, or a refusal saying why not. */
  private async writable(skill: string): Promise<Located> {
    const loc = await this.locate(skill);
    if (!loc.editable) throw fail('refused', 'editor.not-editable', { skill: loc.skill, why: loc.readOnlyReason ?? '' });
    return loc;
  }

  /** Missing folders between the skill and `abs`'s parent, created and recorded for undo. */
  private makeParents(loc: Located, abs: string, changes: JournalChange[], wal: WriteAhead): void {
    const missing: string[] = [];
    for (let d = path.dirname(abs); d !== loc.dir && !lstatOrNull(d); d = path.dirname(d)) missing.unshift(d);
    for (const d of missing) {
      wal.will({ kind: 'created-dir', path: d });
      fs.mkdirSync(d);
      changes.push({ kind: 'created-dir', path: d });
    }
  }

  /** A place under the home to keep what an edit removes, so undo can move it back. */
  private keepDir(id: string, changes: JournalChange[], wal: WriteAhead): string {
    const edits = path.join(this.ctx.paths.home, 'edits');
    if (!lstatOrNull(edits)) {
      wal.will({ kind: 'created-dir', path: edits });
      fs.mkdirSync(edits);
      changes.push({ kind: 'created-dir', path: edits });
    }
    const dir = path.join(edits, id);
    wal.will({ kind: 'created-dir', path: dir });
    fs.mkdirSync(dir);
    changes.push({ kind: 'created-dir', path: dir });
    return dir;
  }

  /** Run one journaled change to a skill's files under the library lock, then tell everyone. */
  private async journaled<T>(
    loc: Located,
    op: string,
    msg: MessageRef,
    summary: string,
    fn: (id: string, changes: JournalChange[], wal: WriteAhead) => T,
  ) {
    const out = await runJournaled(this.ctx, op, (wal) => {
      const changes: JournalChange[] = [];
      const value = fn(wal.id, changes, wal);
      const entry = wal.commit({ op, summary, msg, changes, skills: [{ name: loc.dirName }] });
      return { value, journalId: entry.id };
    });
    await this.changed(loc, op);
    return out;
  }

  async renamePath(skill: string, from: string, to: string) {
    const loc = await this.writable(skill);
    if (from === 'SKILL.md' || to === 'SKILL.md') throw fail('refused', 'editor.path.skill-file');
    const a = resolveInSkill(loc.dir, from, 'write');
    const b = resolveInSkill(loc.dir, to, 'write');
    if (isInside(b, a)) throw fail('refused', 'editor.path.into-itself', { from, to });
    const msg = { key: 'editor.renamed', params: { from, to, skill: loc.skill } };
    const { journalId } = await this.journaled(loc, 'edit', msg, `Renamed ${from} to ${to} in ${loc.skill}`, (_id, changes, wal) => {
      if (!lstatOrNull(a)) throw fail('not-found', 'editor.path.not-found', { path: from, skill: loc.skill });
      if (lstatOrNull(b)) throw fail('conflict', 'editor.path.exists', { path: to });
      this.makeParents(loc, b, changes, wal);
      wal.will({ kind: 'moved', from: a, to: b });
      fs.renameSync(a, b);
      changes.push({ kind: 'moved', from: a, to: b });
    });
    return { from, to, journalId };
  }

  async deletePath(skill: string, rel: string) {
    const loc = await this.writable(skill);
    if (rel === 'SKILL.md') throw fail('refused', 'editor.path.skill-file');
    const abs = resolveInSkill(loc.dir, rel, 'write');
    const msg = { key: 'editor.deleted', params: { path: rel, skill: loc.skill } };
    const { journalId } = await this.journaled(loc, 'edit', msg, `Deleted ${rel} from ${loc.skill}`, (id, changes, wal) => {
      if (!lstatOrNull(abs)) throw fail('not-found', 'editor.path.not-found', { path: rel, skill: loc.skill });
      const kept = path.join(this.keepDir(id, changes, wal), path.basename(abs));
      wal.will({ kind: 'moved', from: abs, to: kept });
      fs.renameSync(abs, kept); // the home and the library share a disk: a rename, never a copy
      changes.push({ kind: 'moved', from: abs, to: kept });
    });
    return { path: rel, journalId };
  }

  async createFolder(skill: string, rel: string) {
    const loc = await this.writable(skill);
    const abs = resolveInSkill(loc.dir, rel, 'write');
    const msg = { key: 'editor.folder-created', params: { path: rel, skill: loc.skill } };
    const { journalId } = await this.journaled(loc, 'edit', msg, `Created the folder ${rel} in ${loc.skill}`, (_id, changes, wal) => {
      if (lstatOrNull(abs)) throw fail('conflict', 'editor.path.exists', { path: rel });
      this.makeParents(loc, abs, changes, wal);
      wal.will({ kind: 'created-dir', path: abs });
      fs.mkdirSync(abs);
      changes.push({ kind: 'created-dir', path: abs });
    });
    return { path: rel, journalId };
  }

  async exportTargets(name: string): Promise<ExportTarget[]> {
    const loc = this.locateLibrary(name);
    const src = fs.realpathSync(loc.dir);
    let srcDigest: string | null = null;
    const out: ExportTarget[] = [];
    for (const agent of allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents)) {
      if (agent.userDirs.length === 0) continue;
      const root = path.resolve(expandHome(agent.userDirs[0], this.ctx.paths.userHome));
      const dest = path.join(root, name);
      const st = lstatOrNull(dest);
      let state: ExportTarget['state'] = 'none';
      if (st?.isSymbolicLink()) {
        let real: string;
        try {
          real = fs.realpathSync(dest);
        } catch {
          real = '';
        }
        state = real === src ? 'linked' : 'other-link';
      } else if (st?.isDirectory()) {
        srcDigest ??= (await skillFacts(this.ctx, loc.dir, name)).digest;
        state = (await skillFacts(this.ctx, dest)).digest === srcDigest ? 'same' : 'different';
      } else if (st) state = 'different';
      out.push({ agent: { id: agent.id, name: agent.name }, root, path: dest, state });
    }
    return out;
  }

  async checkName(name: string) {
    const folderProblem = unsafeFolderName(name);
    const probe = path.join(this.libDir, '.skilldock-name-check');
    const text = `---\nname: ${JSON.stringify(name)}\ndescription: x\n---\n\nx\n`;
    const a = await analyzeSkill(probe, { resourcesDir: this.ctx.paths.resourcesDir, dirName: name, digest: false, skillText: text });
    const diagnostics: Diagnostic[] = a.diagnostics
      .filter((d) => d.code.startsWith('name-') && d.code !== 'name-dir-mismatch')
      .map(({ file: _file, ...d }) => ({ ...d, file: 'SKILL.md', line: undefined }));
    const inLibrary = !folderProblem && name !== '' && lstatOrNull(path.join(this.libDir, name)) !== undefined;
    const catalog = await getCatalog(this.ctx).list({});
    const libRoot = catalog.roots.find((r) => r.kind === 'library');
    const clashes = catalog.entries
      .filter((e) => e.provenance.rootKind !== 'library' && (e.name === name || e.dirName === name))
      .map((e) => {
        const root = catalog.roots.find((r) => r.id === e.provenance.rootId);
        const stronger = root && libRoot ? root.precedence < libRoot.precedence : false;
        return {
          entryId: e.id,
          rootKind: e.provenance.rootKind,
          dir: e.provenance.dir,
          relation: stronger ? ('shadowed-by' as const) : ('shadows' as const),
        };
      });
    return { name, diagnostics, ...(folderProblem ? { folderProblem } : {}), inLibrary, clashes };
  }

  async create(name: string, template: SkillTemplate, description?: string, words?: TemplateWords) {
    const check = await this.checkName(name);
    if (check.folderProblem) throw fail('bad-request', 'library.bad-name', { name, problem: check.folderProblem });
    const errors = check.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) {
      throw fail('refused', 'editor.create.bad-name', { name, problems: errors.map((d) => d.msg ?? d.message) }, { diagnostics: errors });
    }
    const files = templateFiles(name, template, description, words);
    const dest = path.join(this.libDir, name);
    const out = await runJournaled(this.ctx, 'create', (wal) => {
      if (lstatOrNull(dest)) throw fail('conflict', 'editor.create.exists', { name });
      fs.mkdirSync(this.libDir, { recursive: true });
      const stage = path.join(this.libDir, `.${name}.skilldock-new-${randomBytes(4).toString('hex')}`);
      wal.will({ kind: 'created', path: stage });
      for (const f of files) {
        const p = path.join(stage, ...f.path.split('/'));
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, f.content, { mode: f.executable ? 0o755 : 0o644, flag: 'wx' });
      }
      const digest = treeDigest(stage);
      wal.will({ kind: 'moved', from: stage, to: dest });
      fs.renameSync(stage, dest);
      const msg = { key: 'editor.created', params: { skill: name, template } };
      const changes: JournalChange[] = [{ kind: 'created', path: dest, digest }];
      return wal.commit({ op: 'create', summary: `Created the skill ${name} (${template} template)`, msg, changes, skills: [{ name }] });
    });
    await this.changed({ skill: name, dir: dest, dirName: name, rootKind: 'library', linked: false, editable: true }, 'create');
    return { name, dir: dest, files: files.map((f) => f.path), journalId: out.id };
  }
}

export function getEditor(ctx: ServiceContext): EditorService {
  return ctx.use('editor', () => new EditorService(ctx));
}
