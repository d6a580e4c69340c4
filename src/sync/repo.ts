import fs from 'node:fs';
import path from 'node:path';
import { GitError, runGit, type GitResult, type RunGitOptions } from '../sources/git.js';

// The sync repository: a bare git repository at `<home>/sync/repo.git`, read and written only with
// plumbing (hash-object, mktree through a private index, commit-tree, cat-file). Nothing is ever
// checked out from it, so a hostile remote tree (links out, `..`, a `.git` inside a skill) never
// reaches the disk by git: SkillDock reads each blob and writes it itself after checking its path.

/** A tree flattened: repository path → blob (mode and object id). */
export type FlatTree = Map<string, { mode: string; oid: string; size: number }>;

export const BRANCH = 'main';
const IDENT = ['-c', 'user.name=SkillDock sync', '-c', 'user.email=sync@skilldock.invalid'];

export class SyncRepo {
  readonly dir: string;
  constructor(readonly syncDir: string) {
    this.dir = path.join(syncDir, 'repo.git');
  }

  exists(): boolean {
    return fs.existsSync(path.join(this.dir, 'HEAD'));
  }

  git(args: string[], opts: RunGitOptions = {}): Promise<GitResult> {
    return runGit([`--git-dir=${this.dir}`, ...IDENT, ...args], opts);
  }

  async init(url: string): Promise<void> {
    fs.mkdirSync(this.syncDir, { recursive: true });
    await runGit(['init', '-q', '--bare', this.dir]);
    await this.git(['config', 'remote.origin.url', url]);
    await this.git(['config', 'remote.origin.fetch', `+refs/heads/${BRANCH}:refs/remotes/origin/${BRANCH}`]);
    await this.git(['symbolic-ref', 'HEAD', `refs/heads/${BRANCH}`]);
  }

  async url(): Promise<string> {
    return (await this.git(['config', 'remote.origin.url'])).stdout.trim();
  }

  /** The commit a ref names, or null. */
  async rev(ref: string): Promise<string | null> {
    try {
      return (await this.git(['rev-parse', '--verify', '-q', `${ref}^{commit}`])).stdout.trim() || null;
    } catch {
      return null;
    }
  }

  /** Fetch the branch; false when the remote has no such branch (empty, or someone else's). */
  async fetch(url: string): Promise<boolean> {
    try {
      await this.git(['fetch', '-q', '--no-tags', '--end-of-options', 'origin'], { url });
      return true;
    } catch (err) {
      if (err instanceof GitError && err.reason === 'ref') return false;
      throw err;
    }
  }

  /** The remote's refs (names), for telling an empty repository from someone else's. */
  async remoteRefs(url: string): Promise<string[]> {
    const { stdout } = await this.git(['ls-remote', '--end-of-options', 'origin'], { url });
    return stdout
      .split('\n')
      .map((l) => l.split('\t')[1])
      .filter((r): r is string => !!r);
  }

  /** Push `commit` as the branch; never forced: a remote that moved meanwhile refuses it. */
  async push(url: string, commit: string): Promise<void> {
    await this.git(['push', '-q', '--end-of-options', 'origin', `${commit}:refs/heads/${BRANCH}`], { url });
  }

  async isAncestor(a: string, b: string): Promise<boolean> {
    try {
      await this.git(['merge-base', '--is-ancestor', a, b]);
      return true;
    } catch {
      return false;
    }
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    try {
      return (await this.git(['merge-base', a, b])).stdout.trim() || null;
    } catch {
      return null;
    }
  }

  /** Every blob of a commit's tree with its size; other entries (links, submodules) keep their mode. */
  async flat(commit: string | null): Promise<FlatTree> {
    const out: FlatTree = new Map();
    if (!commit) return out;
    const { stdout } = await this.git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
    for (const rec of stdout.split('\0')) {
      if (!rec) continue;
      const tab = rec.indexOf('\t');
      const [mode, , oid, size] = rec.slice(0, tab).split(/\s+/);
      out.set(rec.slice(tab + 1), { mode: mode!, oid: oid!, size: Number(size) || 0 });
    }
    return out;
  }

  /** Write files (absolute paths) as blobs; their object ids in order. */
  async hashFiles(files: string[]): Promise<string[]> {
    if (files.length === 0) return [];
    const { stdout } = await this.git(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.join('\n') + '\n' });
    return stdout.trim().split('\n');
  }

  /** Hash several texts in one git: written to a private scratch folder, then hashed by path. */
  async hashTexts(texts: string[]): Promise<string[]> {
    if (texts.length === 0) return [];
    const dir = fs.mkdtempSync(path.join(this.syncDir, 'texts-'));
    try {
      const files = texts.map((t, i) => {
        const f = path.join(dir, String(i));
        fs.writeFileSync(f, t);
        return f;
      });
      return await this.hashFiles(files);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  async hashText(text: string): Promise<string> {
    return (await this.git(['hash-object', '-w', '--no-filters', '--stdin'], { input: text })).stdout.trim();
  }

  /** The blobs' contents (binary-safe), by object id. */
  async blobs(oids: string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const unique = [...new Set(oids)];
    if (unique.length === 0) return out;
    // one `cat-file --batch`: "<oid> blob <size>\n<bytes>\n" per object
    const { bytes } = await this.git(['cat-file', '--batch'], { input: unique.join('\n') + '\n' });
    const buf = bytes ?? Buffer.alloc(0);
    let at = 0;
    for (const oid of unique) {
      const nl = buf.indexOf(10, at);
      const head = buf.subarray(at, nl).toString('utf8').split(' ');
      if (head[1] !== 'blob') throw new Error(`not a blob: ${oid}`);
      const size = Number(head[2]);
      out.set(oid, buf.subarray(nl + 1, nl + 1 + size));
      at = nl + 1 + size + 1;
    }
    return out;
  }

  /** Build a tree from a flat map through a private index (never the repository's own). */
  async writeTree(tree: FlatTree): Promise<string> {
    const index = path.join(this.syncDir, `index-${process.pid}`);
    fs.rmSync(index, { force: true });
    try {
      const lines = [...tree].map(([p, e]) => `${e.mode} ${e.oid}\t${p}`).join('\n');
      const env = { GIT_INDEX_FILE: index };
      if (lines) await this.git(['update-index', '-z', '--index-info'], { input: lines.replace(/\n/g, '\0') + '\0', env });
      return (await this.git(['write-tree'], { env })).stdout.trim();
    } finally {
      fs.rmSync(index, { force: true });
    }
  }

  async commitTree(tree: string, parents: string[], message: string): Promise<string> {
    const p = parents.flatMap((c) => ['-p', c]);
    return (await this.git(['commit-tree', tree, ...p, '-F', '-'], { input: message })).stdout.trim();
  }

  async setHead(commit: string): Promise<void> {
    await this.git(['update-ref', `refs/heads/${BRANCH}`, commit]);
  }
}
