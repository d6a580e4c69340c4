// A small unified line diff for showing what changed in a script since it was approved.

/** Above this many cells (lines before x lines after) the diff is not computed. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; text: string; a: number; b: number };

function ops(a: string[], b: string[]): Op[] | null {
  // Trim the common head and tail first: edits to scripts are usually small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if ((am.length + 1) * (bm.length + 1) > MAX_CELLS) return null;
  // LCS table over the middle.
  const w = bm.length + 1;
  const t = new Uint32Array((am.length + 1) * w);
  for (let i = am.length - 1; i >= 0; i--) {
    for (let j = bm.length - 1; j >= 0; j--) {
      t[i * w + j] = am[i] === bm[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  const out: Op[] = [];
  for (let k = 0; k < head; k++) out.push({ kind: ' ', text: a[k], a: k, b: k });
  let i = 0;
  let j = 0;
  while (i < am.length || j < bm.length) {
    if (i < am.length && j < bm.length && am[i] === bm[j]) {
      out.push({ kind: ' ', text: am[i], a: head + i, b: head + j });
      i++;
      j++;
    } else if (j < bm.length && (i === am.length || t[i * w + j + 1] >= t[(i + 1) * w + j])) {
      out.push({ kind: '+', text: bm[j], a: head + i, b: head + j });
      j++;
    } else {
      out.push({ kind: '-', text: am[i], a: head + i, b: head + j });
      i++;
    }
  }
  for (let k = 0; k < tail; k++) {
    out.push({ kind: ' ', text: a[a.length - tail + k], a: a.length - tail + k, b: b.length - tail + k });
  }
  return out;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Unified diff (`@@ -a,n +b,m @@` hunks with `context` lines around each change), or null when the
 * texts are too large to compare. Equal texts give ''.
 */
export function unifiedDiff(before: string, after: string, opts: { from?: string; to?: string; context?: number } = {}): string | null {
  const context = opts.context ?? 3;
  const list = ops(splitLines(before), splitLines(after));
  if (!list) return null;
  const changed = list.map((o, idx) => (o.kind !== ' ' ? idx : -1)).filter((idx) => idx >= 0);
  if (!changed.length) return '';
  const out: string[] = [`--- ${opts.from ?? 'approved'}`, `+++ ${opts.to ?? 'current'}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(list.length - 1, changed[k] + context);
    while (k + 1 < changed.length && changed[k + 1] - context <= end + 1) {
      k++;
      end = Math.min(list.length - 1, changed[k] + context);
    }
    k++;
    const hunk = list.slice(start, end + 1);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    const aStart = hunk[0].a + (aCount ? 1 : 0);
    const bStart = hunk[0].b + (bCount ? 1 : 0);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.text}`);
  }
  return out.join('\n') + '\n';
}
