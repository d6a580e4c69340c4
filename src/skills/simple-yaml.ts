// A fast path for the frontmatter most skills have: `key: value` lines with plain or simply quoted
// string values, and one level of nested map (`metadata:`). It accepts only text whose meaning under
// the YAML 1.2 core schema is certain and strict-clean, and returns null for anything else, which the
// caller then hands to the full `yaml` parser. A differential test checks it against `yaml`.

const RESERVED_PLAIN = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);

export interface SimpleYaml {
  value: Record<string, unknown>;
  /** Block line (1-based) of each top-level key and of `parent.child` keys. */
  keyLines: Map<string, number>;
}

/** `block` is the text between the opening `---` line's end and the closing `\n---`. */
export function parseSimpleYaml(block: string): SimpleYaml | null {
  if (!plainText(block)) return null;
  const value: Record<string, unknown> = {};
  const keyLines = new Map<string, number>();
  let parent: Record<string, unknown> | null = null;
  let parentKey = '';
  let childIndent = -1;
  let from = 0;
  for (let line = 1; from <= block.length; line++) {
    const nl = block.indexOf('\n', from);
    const end = nl === -1 ? block.length : nl;
    const next = nl === -1 ? block.length + 1 : nl + 1;
    let indent = from;
    while (indent < end && block.charCodeAt(indent) === 32) indent++;
    if (indent === end || block[indent] === '#') {
      // Blank or comment line. Indented comments are left to the full parser.
      if (indent !== end && indent !== from) return null;
      from = next;
      continue;
    }
    const depth = indent - from;
    if (depth === 0) {
      const kv = keyValue(block, indent, end);
      if (!kv || kv.key in value || kv.key === '__proto__') return null;
      keyLines.set(kv.key, line);
      if (kv.empty) {
        value[kv.key] = null;
        parent = null;
        parentKey = kv.key;
        childIndent = -1;
      } else {
        value[kv.key] = kv.value;
        parentKey = '';
        parent = null;
      }
    } else {
      if (!parentKey) return null; // continuation of a plain scalar, or stray indentation
      if (childIndent === -1) {
        childIndent = depth;
        parent = {};
        value[parentKey] = parent;
      } else if (depth !== childIndent) return null;
      const kv = keyValue(block, indent, end);
      if (!kv || kv.empty || kv.key in parent! || kv.key === '__proto__') return null;
      parent![kv.key] = kv.value;
      keyLines.set(`${parentKey}.${kv.key}`, line);
    }
    from = next;
  }
  return keyLines.size ? { value, keyLines } : null;
}

function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

function keyValue(s: string, start: number, end: number): { key: string; value?: string; empty: boolean } | null {
  if (!isKeyStart(s.charCodeAt(start))) return null;
  let i = start + 1;
  while (i < end && isKeyChar(s.charCodeAt(i))) i++;
  if (s[i] !== ':') return null;
  const key = s.slice(start, i);
  if (RESERVED_PLAIN.has(key)) return null;
  i++;
  if (i === end) return { key, empty: true };
  if (s[i] !== ' ') return null;
  while (i < end && s[i] === ' ') i++;
  if (i === end) return { key, empty: true };
  let stop = end;
  while (s.charCodeAt(stop - 1) === 32) stop--;
  const value = scalar(s.slice(i, stop));
  return value === null ? null : { key, value, empty: false };
}

/** A string value, or null when the full parser must decide. */
function scalar(v: string): string | null {
  const c = v[0];
  if (c === '"' || c === "'") {
    if (v.length < 2 || v[v.length - 1] !== c) return null;
    const inner = v.slice(1, -1);
    if (inner.includes(c) || (c === '"' && inner.includes('\\'))) return null;
    return inner;
  }
  const code = v.charCodeAt(0);
  const letter = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code > 127 && /^\p{L}/u.test(v));
  if (!letter) return null;
  if (v.includes(': ') || v.includes(' #') || v.endsWith(':') || RESERVED_PLAIN.has(v)) return null;
  return v;
}

/** No tabs, control characters, BOMs or other characters YAML treats specially anywhere in the block. */
function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 ? c !== 10 : c >= 0x7f && (c <= 0x9f || c === 0xfeff || c >= 0xfff0 || c === 0x2028 || c === 0x2029)) {
      return false;
    }
  }
  return true;
}
