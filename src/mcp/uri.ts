// `skill://` URIs (SEP-2640): `skill://<skill-path>/<file-path>`, `SKILL.md` explicit, each path
// segment percent-encoded. Parsing is strict: a request whose decoded segments would hide a
// separator (`%2F`, `%5C`), climb (`.`, `..`) or be empty is refused before any lookup, and every
// lookup after that is an exact match against the served list, never a path join.

export const SKILL_SCHEME = 'skill://';
/** The earlier drafts' well-known index, kept for hosts built against them. */
export const INDEX_URI = 'skill://index.json';

export class BadSkillUri extends Error {}

export function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

export function fileUri(skillPath: string, file: string): string {
  return `${SKILL_SCHEME}${encodePath(skillPath)}/${encodePath(file)}`;
}

export function skillUri(skillPath: string): string {
  return fileUri(skillPath, 'SKILL.md');
}

export function dirUri(skillPath: string, dir: string): string {
  return dir ? `${SKILL_SCHEME}${encodePath(skillPath)}/${encodePath(dir)}` : `${SKILL_SCHEME}${encodePath(skillPath)}`;
}

/** The decoded `/`-joined path after `skill://`; throws BadSkillUri for anything ambiguous. */
export function decodeSkillUri(uri: string): string {
  if (typeof uri !== 'string' || !uri.startsWith(SKILL_SCHEME)) throw new BadSkillUri('not a skill:// URI');
  if (uri.length > 4096) throw new BadSkillUri('URI too long');
  const rest = uri.slice(SKILL_SCHEME.length);
  if (/[?#\\]/.test(rest)) throw new BadSkillUri('query, fragment or backslash in a skill URI');
  const parts = rest.split('/').map((seg) => {
    let s: string;
    try {
      s = decodeURIComponent(seg);
    } catch {
      throw new BadSkillUri('bad percent-encoding');
    }
    // eslint-disable-next-line no-control-regex
    if (s === '' || s === '.' || s === '..' || /[/\\\x00-\x1f\x7f]/.test(s)) throw new BadSkillUri('bad path segment');
    return s;
  });
  return parts.join('/');
}
