import picomatch from 'picomatch';
import type { MessageKey } from '../contract/index.js';
import { fail } from '../errors.js';

// Which names a bulk command acts on: the names given, globs (`'beta-*'`) matched here against the
// names the engine knows (never by a shell), or all of them. A name that exists is always taken as
// itself, so a skill whose name holds a glob character (`a[1]`, `x*`) is matched literally; a glob
// that matches nothing is refused with a coded message, never a silent success.

/** Where the names come from: words the refusal in the user's language. */
export type SelectWhere = 'library' | 'trash' | 'catalog';

const NO_MATCH: Record<SelectWhere, MessageKey> = {
  library: 'select.no-match-library',
  trash: 'select.no-match-trash',
  catalog: 'select.no-match-catalog',
};

export interface Selection {
  /** Names or globs; ignored with `all`. */
  names?: readonly string[];
  /** Every candidate. */
  all?: boolean;
}

/** Whether `pattern` is a glob to picomatch (and not a name that exists as it is). */
export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

/**
 * The candidates `sel` names, in the order given (a glob's matches in candidate order), each once.
 * A plain name that is not a candidate is kept, so the operation refuses it with its own message
 * (`library.not-found`); a glob that matches no candidate is refused here.
 */
export function selectNames(candidates: readonly string[], sel: Selection, where: SelectWhere): string[] {
  if (sel.all) return [...new Set(candidates)];
  const known = new Set(candidates);
  const out = new Set<string>();
  for (const pattern of sel.names ?? []) {
    if (known.has(pattern) || !isGlob(pattern)) {
      out.add(pattern);
      continue;
    }
    // dot: a name starting with "." is still a name; nocase off: names are case-sensitive on disk
    const match = picomatch(pattern, { dot: true, nobrace: false, noextglob: false });
    const hits = candidates.filter((c) => match(c));
    if (!hits.length) throw fail('not-found', NO_MATCH[where], { pattern });
    for (const h of hits) out.add(h);
  }
  return [...out];
}
