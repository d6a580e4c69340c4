// The operating system's own folders, as data: a launch refuses them as a workspace (as it refuses
// the disk's root and the user's home), and the write policy never lets an agent write inside the
// trees whatever its workspace. Windows paths are compared without case.

/** Trees of the system: neither they nor any folder inside them is a workspace, nor writable. */
export const SYSTEM_TREES: readonly string[] = [
  '/etc',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/run',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libx32',
  '/usr/libexec',
  '/usr/include',
  '/usr/share',
  '/var/lib',
  '/var/log',
  '/var/cache',
  '/var/spool',
  '/var/db',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db',
  'C:\\Windows',
  'C:\\Program Files',
  'C:\\Program Files (x86)',
  'C:\\ProgramData',
];

/**
 * Folders that hold the system's or every user's folders: never a workspace themselves, though a
 * project may live below them (`/var/www/site`, `/opt/project`, `/home/me/code`).
 */
export const SYSTEM_PARENTS: readonly string[] = [
  '/usr',
  '/usr/local',
  '/var',
  '/opt',
  '/srv',
  '/home',
  '/root',
  '/mnt',
  '/media',
  '/tmp',
  '/snap',
  '/private',
  '/private/var',
  '/private/tmp',
  '/Users',
  '/Applications',
  '/Volumes',
  'C:\\Users',
];

function norm(p: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(p);
  const s = windows ? p.replace(/\\/g, '/').toLowerCase() : p;
  return s.length > 1 && s.endsWith('/') && !/^[a-z]:\/$/.test(s) ? s.slice(0, -1) : s;
}

function isEntry(p: string, entry: string): boolean {
  return p === norm(entry);
}

/** `p` (normalised) and each folder above it, up to the one just below the disk's root. */
function withAncestors(p: string): string[] {
  const out: string[] = [];
  for (let at = p; ;) {
    out.push(at);
    const i = at.lastIndexOf('/');
    if (i <= 0 || /^[a-z]:$/.test(at.slice(0, i))) return out;
    at = at.slice(0, i);
  }
}

/** The system tree `abs` (resolved) is or lies in, or null. */
export function systemTree(abs: string): string | null {
  const all = withAncestors(norm(abs));
  return SYSTEM_TREES.find((entry) => all.some((at) => isEntry(at, entry))) ?? null;
}

/** Why `abs` (resolved) cannot be a workspace: the system folder it is or lies in; null when it may be one. */
export function systemFolderOf(abs: string): string | null {
  const tree = systemTree(abs);
  if (tree) return tree;
  const p = norm(abs);
  return SYSTEM_PARENTS.find((entry) => isEntry(p, entry)) ?? null;
}
