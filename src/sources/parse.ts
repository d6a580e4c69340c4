import { fail } from '../errors.js';

// Parse what a user typed as a skill source into one normalised form. Pure: no disk, no network.
// Forms: any git URL (https, http, ssh, git://, file://, scp-like `git@host:owner/repo`), GitHub
// `owner/repo[/path]` shorthand, GitHub `/tree/<ref>/<path>` and GitLab `/-/tree/<ref>/<path>`
// URLs, a local repository path (absolute, `./`, `../`, `~/`), and a direct archive URL
// (.zip, .skill, .tar.gz, .tgz), and one skill of a web host's well-known index
// (`https://<host>/.well-known/<skills|agent-skills>/<name>`, see well-known-source.ts).

export type SourceKind = 'git' | 'archive' | 'well-known';

export interface ParsedSource {
  /** What the user typed, trimmed. */
  given: string;
  kind: SourceKind;
  /** The URL git (or the downloader) is given: for git always ends without a trailing slash. */
  url: string;
  /** A ref named in the source (tree URL) or by --ref; undefined = the remote's default branch. */
  ref?: string;
  /** Path inside the repository ('' = the root), always with / and no leading or trailing slash. */
  subpath: string;
  /** A stable key for "the same source" (host/path lower-cased, without .git). */
  key: string;
}

const SHORTHAND = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})((?:\/[^/\s]+)*)\/?$/;
const SCP = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)([^\s]+)$/;
const ARCHIVE = /\.(zip|skill|tar\.gz|tgz)$/i;
const WELL_KNOWN_SKILL = /^\/\.well-known\/(?:agent-skills|skills)\/[a-z0-9][a-z0-9-]{0,63}\/?$/;

function bad(given: string, reason: string): never {
  throw fail('bad-request', 'sources.bad-source', { source: given, reason: { key: `sources.reason.${reason}` } });
}

/** Split and check a sub-path: no `..`, `.`, empty parts, backslashes or control characters. */
export function cleanSubpath(given: string, raw: string): string {
  let p = raw;
  try {
    p = decodeURIComponent(raw);
  } catch {
    bad(given, 'path');
  }
  p = p.replace(/^\/+|\/+$/g, '');
  if (!p) return '';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f]/.test(p)) bad(given, 'path');
  for (const part of p.split('/')) if (!part || part === '.' || part === '..') bad(given, 'path');
  return p;
}

/**
 * Refuse a ref git could read as something else: an option (`--upload-pack=…`, `--negotiate-only`:
 * a leading `-`, refused on its own because the character check lets `-` through), a range (`..`),
 * or characters no branch, tag or commit name needs. Every ref from the user, a tree URL, a lock
 * file, an assistant file or a provenance record passes here before it reaches git.
 */
export function checkRef(given: string, ref: string): string {
  if (!/^[A-Za-z0-9._/@^~+-]{1,200}$/.test(ref) || ref.includes('..')) throw fail('bad-request', 'sources.bad-ref', { source: given, ref });
  if (ref.startsWith('-')) throw fail('bad-request', 'sources.bad-ref', { source: given, ref });
  return ref;
}

function keyOf(host: string, repoPath: string): string {
  return `${host.toLowerCase()}/${repoPath
    .replace(/\.git$/i, '')
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase()}`;
}

function decodeRef(given: string, raw: string): string {
  let ref: string;
  try {
    ref = decodeURIComponent(raw);
  } catch {
    return bad(given, 'url');
  }
  return checkRef(given, ref);
}

function fromHttp(given: string, u: URL, ref: string | undefined): ParsedSource {
  const host = u.host.toLowerCase();
  const parts = u.pathname.split('/').filter(Boolean);
  if (ARCHIVE.test(u.pathname)) {
    return { given, kind: 'archive', url: u.toString(), subpath: '', key: keyOf(host, u.pathname), ...(ref ? { ref } : {}) };
  }
  if (WELL_KNOWN_SKILL.test(u.pathname) && !u.search && !u.hash) {
    const url = `${u.origin}${u.pathname.replace(/\/$/, '')}`;
    return { given, kind: 'well-known', url, subpath: '', key: keyOf(host, u.pathname), ...(ref ? { ref } : {}) };
  }
  let repoParts = parts;
  let treeRef: string | undefined;
  let sub = '';
  // GitLab: group/sub/repo/-/tree/<ref>/<path>; GitHub: owner/repo/tree/<ref>/<path>
  const dash = parts.indexOf('-');
  if (dash > 0 && (parts[dash + 1] === 'tree' || parts[dash + 1] === 'blob') && parts.length > dash + 2) {
    repoParts = parts.slice(0, dash);
    treeRef = decodeRef(given, parts[dash + 2]!);
    sub = parts.slice(dash + 3).join('/');
  } else if (host === 'github.com' && parts.length >= 4 && (parts[2] === 'tree' || parts[2] === 'blob')) {
    repoParts = parts.slice(0, 2);
    treeRef = decodeRef(given, parts[3]!);
    sub = parts.slice(4).join('/');
  } else if (host === 'github.com' && parts.length > 2) {
    bad(given, 'github-path');
  }
  if (!repoParts.length) bad(given, 'no-repo');
  if (sub.endsWith('SKILL.md')) sub = sub.slice(0, -'SKILL.md'.length);
  const repoPath = repoParts.join('/');
  const url = `${u.protocol}//${u.username ? `${u.username}${u.password ? `:${u.password}` : ''}@` : ''}${u.host}/${repoPath}`;
  const r = ref ?? treeRef;
  return { given, kind: 'git', url, subpath: cleanSubpath(given, sub), key: keyOf(host, repoPath), ...(r ? { ref: r } : {}) };
}

/** A local path to a repository: `/abs`, `./rel`, `../rel`, `~/x`, `C:\x`. */
export function isLocalPath(s: string): boolean {
  return /^(\/|\.\.?(\/|$)|~(\/|$)|[A-Za-z]:[\\/])/.test(s);
}

export interface ParseOptions {
  ref?: string;
  /** Resolves a local path (relative to the caller's folder, `~` expanded) to an absolute path. */
  resolveLocal?: (p: string) => string;
}

export function parseSource(input: string, opts: ParseOptions = {}): ParsedSource {
  const given = input.trim();
  if (!given) bad(input, 'empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\s]/.test(given)) bad(given, 'whitespace');
  if (given.startsWith('-')) bad(given, 'dash');
  const ref = opts.ref;
  if (ref !== undefined) checkRef(given, ref);
  const withRef = <T extends object>(o: T, r?: string): T => (r ? { ...o, ref: r } : o);

  if (isLocalPath(given)) {
    const abs = opts.resolveLocal ? opts.resolveLocal(given) : given;
    return withRef({ given, kind: 'git' as const, url: `file://${abs.replace(/\/+$/, '')}`, subpath: '', key: keyOf('file', abs) }, ref);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given)?.[1]?.toLowerCase();
  if (scheme) {
    let u: URL;
    try {
      u = new URL(given);
    } catch {
      return bad(given, 'url');
    }
    if (scheme === 'https' || scheme === 'http') return fromHttp(given, u, ref);
    if (scheme === 'file') {
      const p = decodeURIComponent(u.pathname).replace(/\/+$/, '');
      if (!p) bad(given, 'no-repo');
      if (ARCHIVE.test(p)) return withRef({ given, kind: 'archive' as const, url: `file://${p}`, subpath: '', key: keyOf('file', p) }, ref);
      return withRef({ given, kind: 'git' as const, url: `file://${p}`, subpath: '', key: keyOf('file', p) }, ref);
    }
    if (scheme === 'git' || scheme === 'ssh' || scheme === 'git+ssh') {
      const repoPath = u.pathname.replace(/^\/+|\/+$/g, '');
      if (!repoPath) bad(given, 'no-repo');
      const url = given.replace(/^git\+ssh:/i, 'ssh:').replace(/\/+$/, '');
      return withRef({ given, kind: 'git' as const, url, subpath: '', key: keyOf(u.host, repoPath) }, ref);
    }
    return bad(given, 'scheme');
  }
  const scp = SCP.exec(given);
  if (scp && scp[1]) {
    return withRef({ given, kind: 'git' as const, url: given.replace(/\/+$/, ''), subpath: '', key: keyOf(scp[2]!, scp[3]!) }, ref);
  }
  const sh = SHORTHAND.exec(given);
  if (sh) {
    const [, owner, repo, rest] = sh;
    const name = repo!.replace(/\.git$/i, '');
    return withRef(
      {
        given,
        kind: 'git' as const,
        url: `https://github.com/${owner}/${name}.git`,
        subpath: cleanSubpath(given, rest ?? ''),
        key: keyOf('github.com', `${owner}/${name}`),
      },
      ref,
    );
  }
  return bad(given, 'unknown');
}
