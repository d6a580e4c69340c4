import fs from 'node:fs';
import path from 'node:path';

// Skill variants that agent loaders disagree on, written into one agent skills folder. Each is a
// folder (or link) under the root; `outside` holds the targets of links that point out of it.

export interface Variant {
  /** Folder name under the skills root. */
  dir: string;
  /** Files relative to the folder; a string is written as UTF-8. */
  files?: Record<string, string>;
  /** The folder is a symlink to a folder of these files outside the root. */
  linkedDir?: Record<string, string>;
  /** SKILL.md is a symlink to a file outside the root holding this text. */
  linkedSkillFile?: string;
}

export const fm = (fields: Record<string, string>, body = 'Use it when asked.\n') =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n${body}`;

/** A description of exactly `n` characters that names its length (readable in a failure). */
export function descOf(n: number, tag: string): string {
  const head = `${tag} ${n} chars `;
  return (head + 'abcdefghij'.repeat(Math.ceil(n / 10))).slice(0, n);
}

export const VARIANTS: Variant[] = [
  { dir: 'plain', files: { 'SKILL.md': fm({ name: 'plain', description: 'A plain well-formed skill.' }) } },
  { dir: 'no-frontmatter', files: { 'SKILL.md': 'First body line says what this does.\nSecond line.\n' } },
  { dir: 'no-frontmatter-heading', files: { 'SKILL.md': '# Heading first\n\nThen a paragraph.\n' } },
  { dir: 'no-description', files: { 'SKILL.md': fm({ name: 'no-description' }, 'Body line one of no-description.\n') } },
  { dir: 'no-description-heading', files: { 'SKILL.md': fm({ name: 'no-description-heading' }, '\n## Sub heading first\n\nText.\n') } },
  { dir: 'blank-description', files: { 'SKILL.md': fm({ name: 'blank-description', description: '""' }, 'Body of blank.\n') } },
  { dir: 'desc-1023', files: { 'SKILL.md': fm({ name: 'desc-1023', description: descOf(1023, 'd1023') }) } },
  { dir: 'desc-1024', files: { 'SKILL.md': fm({ name: 'desc-1024', description: descOf(1024, 'd1024') }) } },
  { dir: 'desc-1025', files: { 'SKILL.md': fm({ name: 'desc-1025', description: descOf(1025, 'd1025') }) } },
  { dir: 'desc-1536', files: { 'SKILL.md': fm({ name: 'desc-1536', description: descOf(1536, 'd1536') }) } },
  { dir: 'desc-1537', files: { 'SKILL.md': fm({ name: 'desc-1537', description: descOf(1537, 'd1537') }) } },
  { dir: 'desc-2000', files: { 'SKILL.md': fm({ name: 'desc-2000', description: descOf(2000, 'd2000') }) } },
  {
    dir: 'when-to-use',
    files: { 'SKILL.md': fm({ name: 'when-to-use', description: 'Short description.', when_to_use: 'When the user asks for it.' }) },
  },
  { dir: 'upper-name', files: { 'SKILL.md': fm({ name: 'Upper-Name', description: 'Name in capitals.' }) } },
  { dir: 'mismatch-dir', files: { 'SKILL.md': fm({ name: 'other-name', description: 'Name differs from the folder.' }) } },
  { dir: '.dot-skill', files: { 'SKILL.md': fm({ name: 'dot-skill', description: 'In a folder whose name starts with a dot.' }) } },
  { dir: 'group', files: { 'inner/SKILL.md': fm({ name: 'inner', description: 'Nested two levels down.' }) } },
  { dir: 'linked-dir', linkedDir: { 'SKILL.md': fm({ name: 'linked-dir', description: 'The folder is a symlink.' }) } },
  { dir: 'linked-file', linkedSkillFile: fm({ name: 'linked-file', description: 'SKILL.md is a symlink.' }) },
  { dir: 'bom', files: { 'SKILL.md': '\uFEFF' + fm({ name: 'bom', description: 'Starts with a byte order mark.' }) } },
  { dir: 'crlf', files: { 'SKILL.md': fm({ name: 'crlf', description: 'Windows line endings.' }).replace(/\n/g, '\r\n') } },
  { dir: 'lowercase-file', files: { 'skill.md': fm({ name: 'lowercase-file', description: 'skill.md in lower case.' }) } },
  {
    dir: 'blank-line-first',
    files: { 'SKILL.md': '\n' + fm({ name: 'blank-line-first', description: 'A blank line before the frontmatter.' }) },
  },
  {
    dir: 'metadata-string',
    files: { 'SKILL.md': fm({ name: 'metadata-string', description: 'Metadata is a string.', metadata: 'oops' }) },
  },
  {
    dir: 'folded',
    files: { 'SKILL.md': '---\nname: folded\ndescription: >\n  Folded over\n  two lines.\n---\nBody.\n' },
  },
  {
    dir: 'literal',
    files: { 'SKILL.md': '---\nname: literal\ndescription: |\n  Kept line one.\n  Kept line two.\n---\nBody.\n' },
  },
  { dir: 'quoted', files: { 'SKILL.md': fm({ name: 'quoted', description: '"Quoted: with a colon."' }) } },
  { dir: 'unicode', files: { 'SKILL.md': fm({ name: 'unicode', description: 'Résumé 日本語 — emoji 🎉 inside.' }) } },
  { dir: 'angle', files: { 'SKILL.md': fm({ name: 'angle', description: 'Has <xml> tags & ampersands.' }) } },
  { dir: 'unclosed', files: { 'SKILL.md': '---\nname: unclosed\ndescription: Never closed.\nBody.\n' } },
  { dir: 'bad-yaml', files: { 'SKILL.md': '---\nname: bad-yaml\ndescription: [unclosed\n---\nBody.\n' } },
  { dir: 'empty-file', files: { 'SKILL.md': '' } },
  { dir: 'no-skill-file', files: { 'README.md': 'Not a skill.\n' } },
  { dir: 'name-missing', files: { 'SKILL.md': fm({ description: 'Has a description but no name.' }) } },
  { dir: 'numeric-desc', files: { 'SKILL.md': fm({ name: 'numeric-desc', description: '12345' }) } },
  { dir: 'long-name-' + 'x'.repeat(60), files: { 'SKILL.md': fm({ name: 'long-name-' + 'x'.repeat(60), description: 'Name over 64.' }) } },
  { dir: 'extra-field', files: { 'SKILL.md': fm({ name: 'extra-field', description: 'Unknown field present.', color: 'blue' }) } },
  { dir: 'indented-fm', files: { 'SKILL.md': ' ---\nname: indented-fm\ndescription: Indented opening line.\n---\nBody.\n' } },
  { dir: 'dashes-fm', files: { 'SKILL.md': '----\nname: dashes-fm\ndescription: Four dashes.\n----\nBody.\n' } },
  { dir: 'desc-newline-end', files: { 'SKILL.md': '---\nname: desc-newline-end\ndescription: "Ends with a newline\\n"\n---\nBody.\n' } },
  { dir: 'tabs', files: { 'SKILL.md': fm({ name: 'tabs', description: 'Has\ta tab inside.' }) } },
  { dir: 'quotes', files: { 'SKILL.md': fm({ name: 'quotes', description: `He said "hi" and it's fine.` }) } },
  // Issue 25: hidden from the model where the agent reads the field; a strict parser's refusal; a
  // description of 1,024 code points that is longer in UTF-16 units (astral characters).
  {
    dir: 'model-disabled',
    files: { 'SKILL.md': fm({ name: 'model-disabled', description: 'Only a user invokes it.', 'disable-model-invocation': 'true' }) },
  },
  {
    dir: 'model-disabled-yes',
    files: {
      'SKILL.md': fm({ name: 'model-disabled-yes', description: 'Hidden where yes means true.', 'disable-model-invocation': 'Yes' }),
    },
  },
  { dir: 'colon-value', files: { 'SKILL.md': fm({ name: 'colon-value', description: 'Use when: the user asks for it.' }) } },
  { dir: 'astral-1024', files: { 'SKILL.md': fm({ name: 'astral-1024', description: astralOf(1024, 'astral') }) } },
];

/** A description of exactly `n` code points, one in ten an emoji (two UTF-16 units each). */
export function astralOf(n: number, tag: string): string {
  return [...`${tag} ${n} code points `, ...Array.from({ length: n }, (_, i) => (i % 10 === 9 ? '\u{1F389}' : 'abcdefghi'[i % 10]!))]
    .slice(0, n)
    .join('');
}

/** `n` skills `<prefix>NN`, each with a description of `len` characters, for the catalog budgets. */
export function budgetSet(prefix: string, n: number, len: number): Variant[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `${prefix}${String(i + 1).padStart(2, '0')}`;
    return { dir: name, files: { 'SKILL.md': fm({ name, description: descOf(len, name) }) } };
  });
}

/**
 * `n` skills `<prefix>NN` with descriptions of `len` characters, every fifth mostly CJK (each
 * character two columns wide and three UTF-8 bytes): for budgets that count width or bytes.
 */
export function mixedBudgetSet(prefix: string, n: number, len: number): Variant[] {
  return budgetSet(prefix, n, len).map((v, i) => {
    if (i % 5 !== 4) return v;
    const head = `${v.dir} ${len} chars `;
    const description = (head + '日本語の説明文です。漢字と仮名'.repeat(Math.ceil(len / 15))).slice(0, len);
    return { dir: v.dir, files: { 'SKILL.md': fm({ name: v.dir, description }) } };
  });
}

/** Write `variants` under `root`; link targets go under `outside`. */
export function writeVariants(root: string, outside: string, variants: Variant[]): void {
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  for (const v of variants) {
    const dir = path.join(root, v.dir);
    if (v.linkedDir) {
      const target = path.join(outside, v.dir);
      writeFiles(target, v.linkedDir);
      fs.symlinkSync(target, dir, 'dir');
      continue;
    }
    writeFiles(dir, v.files ?? {});
    if (v.linkedSkillFile !== undefined) {
      const target = path.join(outside, `${v.dir}.md`);
      fs.writeFileSync(target, v.linkedSkillFile);
      fs.symlinkSync(target, path.join(dir, 'SKILL.md'), 'file');
    }
  }
}

function writeFiles(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}
