import type { Registry } from '../agents/registry.js';
import type { DiagnosticInit } from './rules.js';

// Frontmatter field rules (shared/docs/lint-rules.md). Lengths are Unicode code points.

export const SPEC_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;
const RESERVED_WORDS = ['anthropic', 'claude'];

type Diag = (code: string, init: Omit<DiagnosticInit, 'file'>) => void;

export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function describe(v: unknown): string {
  if (v === null) return 'empty (null)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  return `a ${typeof v}`;
}

function short(s: string, max = 40): string {
  const cps = [...s.slice(0, max * 2)];
  return cps.length > max ? `${cps.slice(0, max).join('')}…` : cps.join('');
}

export function lintFields(
  fm: Record<string, unknown>,
  dirName: string,
  keyLines: Record<string, number>,
  registry: Registry,
  diag: Diag,
): void {
  const at = (key: string) => keyLines[key];
  lintName(fm, dirName, at('name'), diag);
  lintDescription(fm, at('description'), registry, diag);

  if ('compatibility' in fm) {
    const c = fm.compatibility;
    const problem =
      typeof c !== 'string'
        ? `is ${describe(c)}, not a string`
        : !c.trim()
          ? 'is empty'
          : codePoints(c) > COMPATIBILITY_MAX
            ? `has ${codePoints(c)} characters (max ${COMPATIBILITY_MAX})`
            : '';
    if (problem) diag('compatibility-invalid', { message: `\`compatibility\` ${problem}.`, line: at('compatibility') });
  }
  if ('license' in fm && typeof fm.license !== 'string') {
    diag('license-invalid', { message: `\`license\` is ${describe(fm.license)}, not a string.`, line: at('license') });
  }
  if ('metadata' in fm) {
    const m = fm.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      diag('metadata-not-map', { message: `\`metadata\` is ${describe(m)}, not a map.`, line: at('metadata') });
    } else {
      for (const [k, v] of Object.entries(m)) {
        if (typeof v !== 'string') {
          diag('metadata-value-not-string', {
            message: `\`metadata.${k}\` is ${describe(v)}, not a string.`,
            line: at(`metadata.${k}`) ?? at('metadata'),
          });
        }
      }
    }
  }
  if ('allowed-tools' in fm && typeof fm['allowed-tools'] !== 'string') {
    diag('allowed-tools-invalid', {
      message: `\`allowed-tools\` is ${describe(fm['allowed-tools'])}, not a space-separated string.`,
      line: at('allowed-tools'),
    });
  }

  const extensions = extensionUsers(registry);
  for (const key of Object.keys(fm)) {
    if (SPEC_FIELDS.has(key)) continue;
    const users = extensions.get(key);
    if (users) {
      const who = users.length ? ` used by ${users.join(', ')}` : '';
      diag('field-unknown', {
        message: `\`${key}\` is not in the Agent Skills spec; it is a known extension${who}, other agents ignore it.`,
        line: at(key),
        severity: 'info',
        agents: users,
        fix: 'Keep it if you target those agents; other agents ignore it.',
      });
    } else {
      diag('field-unknown', { message: `\`${short(key)}\` is not an Agent Skills field.`, line: at(key) });
    }
  }
}

const extensionCache = new WeakMap<Registry, Map<string, string[]>>();

/** Known frontmatter extensions and the agents that read them (registry `frontmatterExtensions`). */
export function extensionUsers(registry: Registry): Map<string, string[]> {
  let m = extensionCache.get(registry);
  if (!m) {
    m = new Map(Object.entries(registry.frontmatterExtensions ?? {}).map(([k, v]) => [k, [...v]]));
    extensionCache.set(registry, m);
  }
  return m;
}

function lintName(fm: Record<string, unknown>, dirName: string, line: number | undefined, diag: Diag): void {
  const name = fm.name;
  if (!('name' in fm) || name === null || name === '') {
    diag('name-missing', { message: 'The frontmatter has no `name`.', line });
    return;
  }
  if (typeof name !== 'string') {
    diag('name-not-string', { message: `\`name\` is ${describe(name)}, not a string.`, line });
    return;
  }
  const len = codePoints(name);
  if (len > NAME_MAX) diag('name-too-long', { message: `\`name\` has ${len} characters (max ${NAME_MAX}).`, line });

  const problems: string[] = [];
  const bad = new Set<string>();
  let upper = false;
  let unicode = false;
  for (const ch of name) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '-') continue;
    if (ch >= 'A' && ch <= 'Z') upper = true;
    else if (/\p{Lu}|\p{Lt}/u.test(ch)) upper = true;
    else if (/\p{L}|\p{N}/u.test(ch) && ch.charCodeAt(0) > 127) unicode = true;
    else if (bad.size < 5) bad.add(ch);
  }
  if (upper) problems.push('upper-case letters');
  if (bad.size) problems.push(`characters outside a-z 0-9 - (${[...bad].map((c) => JSON.stringify(c)).join(' ')})`);
  if (name.startsWith('-')) problems.push('a leading hyphen');
  if (name.endsWith('-')) problems.push('a trailing hyphen');
  if (name.includes('--')) problems.push('consecutive hyphens (`--`)');
  if (problems.length) diag('name-invalid', { message: `\`name\` "${short(name)}" has ${problems.join(', ')}.`, line });
  if (unicode) {
    diag('name-unicode', {
      message: `\`name\` "${short(name)}" has non-ASCII letters: the spec text says a-z, some validators accept them.`,
      line,
    });
  }
  if (name.normalize('NFC') !== dirName.normalize('NFC')) {
    diag('name-dir-mismatch', {
      message: `\`name\` "${short(name)}" differs from the directory name "${short(dirName)}" (agents that use the directory name will call it "${short(dirName)}").`,
      line,
    });
  }
  const lower = name.toLowerCase();
  const reserved = RESERVED_WORDS.filter((w) => lower.includes(w));
  if (reserved.length) diag('name-reserved', { message: `\`name\` contains the reserved word "${reserved[0]}".`, line });
}

function lintDescription(fm: Record<string, unknown>, line: number | undefined, registry: Registry, diag: Diag): void {
  const d = fm.description;
  if (!('description' in fm) || d === null) {
    diag('description-missing', { message: 'The frontmatter has no `description`.', line });
    return;
  }
  if (typeof d !== 'string') {
    diag('description-not-string', { message: `\`description\` is ${describe(d)}, not a string.`, line });
    return;
  }
  if (!d.trim()) {
    diag('description-empty', { message: '`description` is empty.', line });
    return;
  }
  const len = codePoints(d);
  if (len > DESCRIPTION_MAX)
    diag('description-too-long', { message: `\`description\` has ${len} characters (max ${DESCRIPTION_MAX}).`, line });
  if (d.includes('<') || d.includes('>')) diag('description-angle-brackets', { message: '`description` contains `<` or `>`.', line });

  // Each agent's catalog budget names the fields it counts and where it cuts.
  const hit: string[] = [];
  let detail = '';
  for (const a of registry.agents) {
    const b = a.quirks.descriptionBudget;
    if (!b) continue;
    let total = 0;
    for (const f of b.includes) if (typeof fm[f] === 'string') total += codePoints(fm[f] as string);
    if (total > b.chars) {
      hit.push(a.id);
      detail ||= `${b.includes.join(' + ')} have ${total} characters; ${a.name} cuts at ${b.chars}`;
    }
  }
  if (hit.length) diag('description-budget', { message: `${detail}.`, line, agents: hit });
}
