import { hiddenFromListing, type Registry } from '../agents/registry.js';
import { kindOf as describe, type DiagnosticInit } from './rules.js';
import type { MessageRef } from '../contract/index.js';

// Frontmatter field rules (docs/lint-rules.md). Lengths are Unicode code points.

export const SPEC_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;
const RESERVED_WORDS = ['anthropic', 'claude'];

type Diag = (code: string, init: Omit<DiagnosticInit, 'file'>) => void;

/** No more code points than UTF-16 units: a string this short is within `max` without counting. */
function overMax(s: string, max: number): number | null {
  if (s.length <= max) return null;
  const n = codePoints(s);
  return n > max ? n : null;
}

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
    const line = at('compatibility');
    if (typeof c !== 'string') diag('compatibility-invalid', { says: 'kind', params: { kind: describe(c) }, line });
    else if (!c.trim()) diag('compatibility-invalid', { says: 'empty', line });
    else {
      const length = overMax(c, COMPATIBILITY_MAX);
      if (length !== null) diag('compatibility-invalid', { says: 'too-long', params: { length, max: COMPATIBILITY_MAX }, line });
    }
  }
  if ('license' in fm && typeof fm.license !== 'string') {
    diag('license-invalid', { says: 'message', params: { kind: describe(fm.license) }, line: at('license') });
  }
  if ('metadata' in fm) {
    const m = fm.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      diag('metadata-not-map', { says: 'message', params: { kind: describe(m) }, line: at('metadata') });
    } else {
      for (const [k, v] of Object.entries(m)) {
        if (typeof v !== 'string') {
          diag('metadata-value-not-string', {
            says: 'message',
            params: { key: k, kind: describe(v) },
            line: at(`metadata.${k}`) ?? at('metadata'),
          });
        }
      }
    }
  }
  if ('allowed-tools' in fm && typeof fm['allowed-tools'] !== 'string') {
    diag('allowed-tools-invalid', {
      says: 'message',
      params: { kind: describe(fm['allowed-tools']) },
      line: at('allowed-tools'),
    });
  }

  const extensions = extensionUsers(registry);
  for (const key of Object.keys(fm)) {
    if (SPEC_FIELDS.has(key)) continue;
    // A field that keeps the skill out of some agents' listings (`disable-model-invocation: true`):
    // said per agent, instead of calling a field they read unknown.
    const hiders = registry.agents.filter((a) => hiddenFromListing(a.listing?.hiddenBy, key, fm[key])).map((a) => a.id);
    if (hiders.length) {
      diag('model-invocation-disabled', { says: 'message', params: { field: key, agents: hiders }, line: at(key), agents: hiders });
      continue;
    }
    const users = extensions.get(key);
    if (users) {
      diag('field-unknown', {
        says: users.length ? 'extension' : 'extension-any',
        params: users.length ? { field: key, agents: users } : { field: key },
        line: at(key),
        severity: 'info',
        agents: users,
        fixSays: 'fix-extension',
      });
    } else {
      diag('field-unknown', { says: 'unknown', params: { field: short(key) }, line: at(key) });
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
    diag('name-missing', { says: 'message', line });
    return;
  }
  if (typeof name !== 'string') {
    diag('name-not-string', { says: 'message', params: { kind: describe(name) }, line });
    return;
  }
  const len = overMax(name, NAME_MAX);
  if (len !== null) diag('name-too-long', { says: 'message', params: { length: len, max: NAME_MAX }, line });

  const problems: MessageRef[] = [];
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
  const problem = (which: string, params?: MessageRef['params']): MessageRef =>
    params ? { key: `diag.name-invalid.${which}`, params } : { key: `diag.name-invalid.${which}` };
  if (upper) problems.push(problem('upper'));
  if (bad.size) problems.push(problem('chars', { chars: [...bad].map((c) => JSON.stringify(c)).join(' ') }));
  if (name.startsWith('-')) problems.push(problem('leading'));
  if (name.endsWith('-')) problems.push(problem('trailing'));
  if (name.includes('--')) problems.push(problem('double'));
  if (problems.length) diag('name-invalid', { says: 'message', params: { name: short(name), problems }, line });
  if (unicode) {
    diag('name-unicode', {
      says: 'message',
      params: { name: short(name) },
      line,
    });
  }
  if (name !== dirName && name.normalize('NFC') !== dirName.normalize('NFC')) {
    diag('name-dir-mismatch', {
      says: 'message',
      params: { name: short(name), dir: short(dirName) },
      line,
    });
  }
  const lower = name.toLowerCase();
  const reserved = RESERVED_WORDS.filter((w) => lower.includes(w));
  if (reserved.length) diag('name-reserved', { says: 'message', params: { word: reserved[0] }, line });
}

function lintDescription(fm: Record<string, unknown>, line: number | undefined, registry: Registry, diag: Diag): void {
  const d = fm.description;
  if (!('description' in fm) || d === null) {
    diag('description-missing', { says: 'message', line });
    return;
  }
  if (typeof d !== 'string') {
    diag('description-not-string', { says: 'message', params: { kind: describe(d) }, line });
    return;
  }
  if (!d.trim()) {
    diag('description-empty', { says: 'message', line });
    return;
  }
  const len = overMax(d, DESCRIPTION_MAX);
  if (len !== null) diag('description-too-long', { says: 'message', params: { length: len, max: DESCRIPTION_MAX }, line });
  else if (d.length > DESCRIPTION_MAX) {
    // Within the spec's 1024 characters, but over 1024 UTF-16 units: agents that count units refuse it.
    const units = registry.agents
      .filter((a) => a.quirks.descriptionUnits === 'utf16' && ['dropped', 'error'].includes(a.quirks.descriptionOver1024 ?? ''))
      .map((a) => a.id);
    if (units.length) {
      const params = { length: d.length, max: DESCRIPTION_MAX, agents: units };
      diag('description-too-long', { says: 'units', params, line, agents: units, fixSays: 'fix-units' });
    }
  }
  if (d.includes('<') || d.includes('>')) diag('description-angle-brackets', { says: 'message', line });

  // Each agent's catalog budget names the fields it counts and where it cuts.
  const hit: string[] = [];
  let detail: MessageRef['params'];
  for (const a of registry.agents) {
    const b = a.quirks.descriptionBudget;
    if (!b) continue;
    // Code points are never more than UTF-16 units: count them only when the units are over.
    let units = 0;
    for (const f of b.includes) if (typeof fm[f] === 'string') units += (fm[f] as string).length;
    if (units <= b.chars) continue;
    let total = 0;
    for (const f of b.includes) if (typeof fm[f] === 'string') total += codePoints(fm[f] as string);
    if (total > b.chars) {
      hit.push(a.id);
      detail ??= { fields: b.includes.join(' + '), length: total, agent: a.name, max: b.chars };
    }
  }
  if (hit.length) diag('description-budget', { says: 'message', params: detail, line, agents: hit });
}
