import type { TFunction } from 'i18next';
import type { Assistant } from '../../../../src/contract/index';

/** As the engine compares assistant names (src/assistants/model.ts nameKey): NFKC, trimmed, any case. */
function key(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

/** Is a name taken by one of these assistants (starters included)? */
export function takenIn(list: readonly Assistant[]): (name: string) => boolean {
  const names = new Set(list.map((a) => key(a.name)));
  return (name) => names.has(key(name));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template of `k` as a pattern whose one group is the name (`n` any number). */
function patternOf(t: TFunction, k: 'assistants.copyName' | 'assistants.copyNameN'): RegExp {
  const [pre, post = ''] = t(k, { name: '\u0000', n: '\u0001' }).split('\u0000');
  return new RegExp(`^${escape(pre)}(.+?)${escape(post).replace('\u0001', '\\d+')}$`, 'u');
}

/**
 * The name of a copy in the user's language: "<name> copy", then "<name> copy 2", ..., the first that
 * is free. A copy of a copy counts on from its original ("Code Reviewer copy 3", never "Code Reviewer
 * copy 2 copy"). The same name serves an imported assistant whose name is taken (keep both).
 */
export function copyNameIn(t: TFunction, name: string, taken: (name: string) => boolean): string {
  let base = name;
  for (const k of ['assistants.copyNameN', 'assistants.copyName'] as const) {
    const m = patternOf(t, k).exec(name);
    if (m) {
      base = m[1];
      break;
    }
  }
  const first = t('assistants.copyName', { name: base });
  if (!taken(first)) return first;
  for (let n = 2; n < 10_000; n++) {
    const candidate = t('assistants.copyNameN', { name: base, n });
    if (!taken(candidate)) return candidate;
  }
  return first;
}
