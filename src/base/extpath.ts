import path from 'node:path';

// The one "is this path inside that folder" test of the engine, as VS Code keeps `isEqualOrParent`
// in base/common/extpath.ts. It lives below every domain (it imports only node:path), so any of them
// may use it. Two mistakes it exists to avoid: `path.relative(parent, child).startsWith('..')`
// calls `<parent>/..notes.md` outside (a file name may begin with two dots), and a byte comparison
// calls `/Users/Me/x` outside `/users/me` on a filesystem that does not tell case apart.

/** How to compare: the path flavour (POSIX or Windows) and whether the filesystem ignores case. */
export interface PathFlavor {
  path?: path.PlatformPath;
  ignoreCase?: boolean;
}

/**
 * The platform's own comparison: Windows and macOS filesystems ignore case by default, Linux's do
 * not. (A case-sensitive APFS volume gets the macOS default; the cost is that a path differing only
 * in case counts as inside, which is what the default volume would do anyway.)
 */
export function nativeFlavor(platform: NodeJS.Platform = process.platform): Required<PathFlavor> {
  return {
    path: platform === 'win32' ? path.win32 : path.posix,
    ignoreCase: platform === 'win32' || platform === 'darwin',
  };
}

const NATIVE = nativeFlavor();

function normalised(p: string, flavor: PathFlavor): { shown: string; compared: string; sep: string } {
  const lib = flavor.path ?? NATIVE.path;
  // resolve() drops trailing separators and `.`/`..` segments (and, on Windows, turns `/` into `\`).
  const shown = lib.resolve(p);
  const ignoreCase = flavor.ignoreCase ?? (flavor.path ? flavor.path === path.win32 : NATIVE.ignoreCase);
  return { shown, compared: ignoreCase ? foldCase(shown) : shown, sep: lib.sep };
}

/**
 * Lower case that keeps the string's length, so an offset in the folded text is an offset in the
 * original (`'İ'.toLowerCase()` is two code units: such a character is kept as it is).
 */
function foldCase(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) {
    const low = ch.toLowerCase();
    out += low.length === ch.length ? low : ch;
  }
  return out;
}

/**
 * The path of `child` relative to `parent` (with the flavour's separators, '' when they are the
 * same folder), or null when `child` is not `parent` or inside it. Both are resolved first, so
 * trailing separators and `..` segments do not fool it; links are not followed (compare real paths
 * when links matter).
 */
export function relativeInside(parent: string, child: string, flavor: PathFlavor = {}): string | null {
  const p = normalised(parent, flavor);
  const c = normalised(child, flavor);
  if (c.compared === p.compared) return '';
  // A root (`/`, `C:\`) already ends with the separator; any other folder gets one, so `/a/bc` is
  // not inside `/a/b`.
  const prefix = p.compared.endsWith(p.sep) ? p.compared : p.compared + p.sep;
  if (!c.compared.startsWith(prefix)) return null;
  return c.shown.slice(prefix.length);
}

/** True when `child` is `parent` or lies inside it (see relativeInside for how they are compared). */
export function isInside(child: string, parent: string, flavor: PathFlavor = {}): boolean {
  return relativeInside(parent, child, flavor) !== null;
}
