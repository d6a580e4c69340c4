import { isMap, isScalar, parse, parseDocument, type Pair, type Scalar, type YAMLMap } from 'yaml';

// The frontmatter as a form, kept in sync with the raw text both ways. Reading parses the YAML
// (the `yaml` package only parses: nothing is evaluated). Writing never re-serialises the block:
// each change is a splice of the text of the one value it touches, so comments, key order,
// quoting and layout of everything else stay byte for byte.

export const FORM_FIELDS = ['name', 'description', 'license', 'compatibility', 'allowed-tools'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export interface FrontmatterView {
  /** Field values; null when the field is absent. */
  values: Record<FormField, string | null>;
  /** Fields whose value is not a plain string (a list, a map...): edited in the raw text only. */
  locked: FormField[];
  /** metadata entries; null when metadata is absent. */
  metadata: Array<[string, string]> | null;
  /** metadata is a flow map, a list or holds non-string values: raw text only. */
  metadataLocked: boolean;
}

interface Block {
  /** Offset of the frontmatter text (after the opening `---` line) in the whole text. */
  start: number;
  /** Offset of the closing fence line. */
  end: number;
  yaml: string;
}

function findBlock(text: string): Block | null {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) return null;
  const start = open[0].length;
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(start);
  const m = close.exec(rest);
  if (!m) return null;
  return { start, end: start + m.index, yaml: rest.slice(0, m.index) };
}

function topMap(yaml: string): YAMLMap | null {
  const doc = parseDocument(yaml);
  if (doc.errors.length) return null;
  if (doc.contents === null && yaml.trim() === '') return null;
  return isMap(doc.contents) ? (doc.contents as YAMLMap) : null;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && (p.key as Scalar).value === key) as Pair | undefined;
}

/** The form's view of the text, or null when there is no readable frontmatter map. */
export function readFrontmatter(text: string): FrontmatterView | null {
  const block = findBlock(text);
  if (!block) return null;
  const map = topMap(block.yaml);
  if (!map) return null;
  const values = {} as Record<FormField, string | null>;
  const locked: FormField[] = [];
  for (const f of FORM_FIELDS) {
    const p = pairOf(map, f);
    if (!p) values[f] = null;
    else if (isScalar(p.value) && typeof (p.value as Scalar).value === 'string') values[f] = (p.value as Scalar).value as string;
    else {
      values[f] =
        p.value === null || (isScalar(p.value) && (p.value as Scalar).value === null) ? '' : scalarText((p.value as Scalar)?.value);
      locked.push(f);
    }
  }
  const mp = pairOf(map, 'metadata');
  let metadata: Array<[string, string]> | null = null;
  let metadataLocked = false;
  if (mp) {
    const v = mp.value;
    if (isMap(v) && !(v as YAMLMap).flow) {
      metadata = [];
      for (const item of (v as YAMLMap).items) {
        const k = isScalar(item.key) ? String((item.key as Scalar).value) : null;
        const val = isScalar(item.value) ? (item.value as Scalar).value : undefined;
        if (k === null || typeof val !== 'string') metadataLocked = true;
        metadata.push([k ?? '', typeof val === 'string' ? val : scalarText(val)]);
      }
    } else metadataLocked = true;
  }
  return { values, locked, metadata, metadataLocked };
}

/** What a locked (non-string) scalar shows: a number or boolean as its text, anything else as JSON. */
function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v as number | boolean | bigint);
}

/** A YAML scalar for `value`, keeping the old quoting style where it can. */
function render(value: string, style?: string): string {
  if (style === 'QUOTE_SINGLE' && !/[\n\r]/.test(value)) return `'${value.replace(/'/g, "''")}'`;
  if (style === 'QUOTE_DOUBLE') return JSON.stringify(value);
  let plainOk: boolean;
  try {
    plainOk = value !== '' && !/^[\s]|[\s]$|[\n\r]|: | #|^[-?:,[\]{}#&*!|>'"%@`]/.test(value) && parse(value) === value;
  } catch {
    plainOk = false;
  }
  return plainOk ? value : JSON.stringify(value);
}

interface Splice {
  from: number;
  to: number;
  insert: string;
}

function apply(text: string, block: Block, edits: Splice[]): string {
  let yaml = block.yaml;
  for (const e of [...edits].sort((a, b) => b.from - a.from)) yaml = yaml.slice(0, e.from) + e.insert + yaml.slice(e.to);
  return text.slice(0, block.start) + yaml + text.slice(block.end);
}

function lineStart(s: string, at: number): number {
  return s.lastIndexOf('\n', at - 1) + 1;
}
function lineEnd(s: string, at: number): number {
  const n = s.indexOf('\n', at);
  return n === -1 ? s.length : n + 1;
}
/** Remove the whole lines a pair spans (its comment on the same line goes with it). */
function removePair(yaml: string, p: Pair): Splice {
  const key = p.key as Scalar;
  const val = p.value as Scalar | null;
  const last = val?.range ? Math.max(val.range[1] - 1, val.range[0]) : key.range![1];
  return { from: lineStart(yaml, key.range![0]), to: lineEnd(yaml, last), insert: '' };
}
/** Replace a scalar's text, keeping the line break a block scalar carries at its end. */
function replaceValue(yaml: string, val: Scalar, value: string): Splice {
  const [from, to] = val.range!;
  const old = yaml.slice(from, to);
  const trailing = /\n*$/.exec(old)![0];
  return { from, to, insert: render(value, val.type ?? undefined) + trailing };
}
function ensureNewline(yaml: string): Splice[] {
  return yaml === '' || yaml.endsWith('\n') ? [] : [{ from: yaml.length, to: yaml.length, insert: '\n' }];
}

/** The text with one field set (null or '' removes an optional field; name and description stay, emptied). */
export function setField(text: string, field: FormField, value: string | null): string {
  const block = findBlock(text);
  const map = block ? topMap(block.yaml) : null;
  if (!block || !map) return text;
  const p = pairOf(map, field);
  const required = field === 'name' || field === 'description';
  if (value === null || (value === '' && !required)) return p ? apply(text, block, [removePair(block.yaml, p)]) : text;
  if (p && isScalar(p.value) && (p.value as Scalar).range) return apply(text, block, [replaceValue(block.yaml, p.value as Scalar, value)]);
  if (p) return text; // a list or map: the raw text owns it
  return apply(text, block, [
    ...ensureNewline(block.yaml),
    { from: block.yaml.length, to: block.yaml.length, insert: `${field}: ${render(value)}\n` },
  ]);
}

/** The text with metadata set to `entries` (in that order for new keys; existing keys stay where they are). */
export function setMetadata(text: string, entries: Array<[string, string]>): string {
  const block = findBlock(text);
  const map = block ? topMap(block.yaml) : null;
  if (!block || !map) return text;
  const yaml = block.yaml;
  const p = pairOf(map, 'metadata');
  const clean = entries.filter(([k]) => k.trim() !== '');
  if (!p) {
    if (!clean.length) return text;
    const lines = clean.map(([k, v]) => `  ${render(k)}: ${render(v)}\n`).join('');
    return apply(text, block, [...ensureNewline(yaml), { from: yaml.length, to: yaml.length, insert: `metadata:\n${lines}` }]);
  }
  if (!clean.length) return apply(text, block, [removePair(yaml, p)]);
  if (!isMap(p.value) || (p.value as YAMLMap).flow) return text;
  const m = p.value as YAMLMap;
  const want = new Map(clean);
  const edits: Splice[] = [];
  const seen = new Set<string>();
  let indent = '  ';
  let after = lineEnd(yaml, (p.key as Scalar).range![1]);
  for (const item of m.items as Pair[]) {
    const k = isScalar(item.key) ? String((item.key as Scalar).value) : '';
    const keyStart = (item.key as Scalar).range![0];
    indent = yaml.slice(lineStart(yaml, keyStart), keyStart);
    const val = item.value as Scalar | null;
    after = lineEnd(yaml, val?.range ? Math.max(val.range[1] - 1, val.range[0]) : keyStart);
    if (!want.has(k)) edits.push(removePair(yaml, item));
    else {
      seen.add(k);
      const next = want.get(k)!;
      if (isScalar(val) && val.range && val.value !== next) edits.push(replaceValue(yaml, val, next));
    }
  }
  const added = clean.filter(([k]) => !seen.has(k));
  if (added.length) {
    const prefix = after > 0 && yaml[after - 1] !== '\n' ? '\n' : '';
    edits.push({ from: after, to: after, insert: prefix + added.map(([k, v]) => `${indent}${render(k)}: ${render(v)}\n`).join('') });
  }
  return apply(text, block, edits);
}
