// A skill's state id names its private dir `~/.skilldock/skills-state/<id>/`. It is built from
// untrusted frontmatter, so it must be a single, harmless path segment on every OS.

const NAME_MAX = 64;
const VERSION_MAX = 32;
/** Longest id stateIdFor can produce: name, `-`, version. */
export const STATE_ID_MAX = NAME_MAX + 1 + VERSION_MAX;

// Device names Windows refuses as file names, whatever the extension.
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/;

/** Already what `sanitize` makes of it: word runs joined by single `.` or `-` (most skill names and versions). */
const CLEAN = /^[a-z0-9_]+(?:[.-][a-z0-9_]+)*$/;

/** Lowercase ASCII `[a-z0-9._-]`, no `..`, no leading `.`/`-`, no trailing `.`/`-`; '' when nothing is left. */
function sanitize(raw: string, max: number): string {
  // Every skill of a scan gets an id: a clean name skips the folding below (it would return it as is).
  if (raw.length <= max && CLEAN.test(raw)) return raw;
  // NFKD splits accents off letters (é -> e + U+0301) and folds compatibility forms (ｃ -> c).
  const folded = raw
    .slice(0, max * 8)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
  let out = '';
  // A run of separators and dots becomes one `-`, or one `.` when it held only dots: no `..`, ever.
  let run = '';
  for (const ch of folded) {
    const word = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_';
    if (word) {
      if (run) out += run.includes('-') ? '-' : '.';
      run = '';
      out += ch;
    } else {
      run += ch === '.' ? '.' : '-';
    }
  }
  out = trimEdges(out);
  if (out.length > max) out = trimEdges(out.slice(0, max));
  return out;
}

function trimEdges(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (s[start] === '.' || s[start] === '-')) start++;
  while (end > start && (s[end - 1] === '.' || s[end - 1] === '-')) end--;
  return s.slice(start, end);
}

/**
 * `<sanitized name>[-<sanitized version>]`, e.g. `code-1.0.4`; null when the name leaves nothing usable
 * (empty, only punctuation, or a script with no ASCII letters).
 */
export function stateIdFor(name: string, version?: string | null): string | null {
  if (typeof name !== 'string') return null;
  let base = sanitize(name, NAME_MAX);
  if (!base) return null;
  if (WINDOWS_RESERVED.test(base)) base = `${base}_`;
  const v = typeof version === 'string' ? sanitize(version, VERSION_MAX) : '';
  return v ? `${base}-${v}` : base;
}

/** True when `id` is exactly what stateIdFor could produce: safe as one path segment. */
export function isValidStateId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > STATE_ID_MAX) return false;
  if (!/^[a-z0-9_][a-z0-9._-]*$/.test(id)) return false;
  if (id.includes('..') || id.endsWith('.') || id.endsWith('-')) return false;
  if (WINDOWS_RESERVED.test(id)) return false;
  return true;
}
