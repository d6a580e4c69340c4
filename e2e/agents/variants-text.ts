import { descOf, fm, type Variant } from './variants.js';

// Variants for how a description's text and a skill's name reach the listing: YAML block scalars
// and escapes that leave line breaks and spaces in the value, `when_to_use`, and names that sort
// differently by code point, by Unicode's collation and by a language's.

const file = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`;

/** Descriptions whose value keeps line breaks or spaces (each a few lines of YAML as written). */
export const SHAPES: Variant[] = [
  { dir: 'literal', files: { 'SKILL.md': file('literal', '|\n  Kept line one.\n  Kept line two.') } },
  {
    dir: 'literal-crlf',
    files: { 'SKILL.md': file('literal-crlf', '|\n  CRLF line one.\n  CRLF line two.').replace(/\n/g, '\r\n') },
  },
  { dir: 'trailing-spaces', files: { 'SKILL.md': file('trailing-spaces', '"  Spaces around.   "') } },
  { dir: 'folded-strip', files: { 'SKILL.md': file('folded-strip', '>-\n  Folded and\n  stripped.\n\n  Second paragraph.') } },
  // `|+` keeps its trailing blank lines; the line break before the closing `---` is not the value's.
  { dir: 'literal-keep', files: { 'SKILL.md': file('literal-keep', '|+\n  Kept with blanks.\n\n') } },
  {
    dir: 'literal-keep-mid',
    files: { 'SKILL.md': '---\nname: literal-keep-mid\ndescription: |+\n  Kept, a key after.\n\n\nlicense: MIT\n---\nBody.\n' },
  },
  { dir: 'blank-runs', files: { 'SKILL.md': file('blank-runs', '|\n  Para one.\n\n\n\n  Para two.') } },
  { dir: 'escaped-newlines', files: { 'SKILL.md': file('escaped-newlines', '"First line.\\nSecond line.\\n"') } },
  {
    dir: 'when-to-use',
    files: { 'SKILL.md': fm({ name: 'when-to-use', description: 'Formats tables.', when_to_use: 'When the user pastes CSV & <tabs>.' }) },
  },
];

/** Skills named to sort three ways (code point, Unicode's default collation, Swedish: `ä` after `z`). */
export const ORDER_NAMES = ['PDF-Tools', 'alpha', 'Beta', 'zeta', '_under', 'a-b', 'a_b', 'a.b', 'Zed', '10x', '9x', 'ägypten'];
export const ORDERED: Variant[] = ORDER_NAMES.map((name) => ({
  dir: name,
  files: { 'SKILL.md': fm({ name: JSON.stringify(name), description: `Sorted as ${name}.` }) },
}));

/** One skill `fill` with a description of `n` characters, to bring a listing to an exact size. */
export function filler(n: number): Variant {
  return { dir: 'fill', files: { 'SKILL.md': fm({ name: 'fill', description: descOf(n, 'fill') }) } };
}
