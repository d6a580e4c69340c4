import { describe, expect, it } from 'vitest';
import { indexedSkill } from '../../test/support/indexed-skill.js';
import { SkillSearch, queryTerms, type SearchDoc } from './search.js';

// Ranking on a fixed corpus: the expected top results for typical queries, typos, name over body,
// filters, incremental updates, and queries that are not words.

const skill = indexedSkill;

const CORPUS = [
  skill('pdf', 'Extract text and tables from PDF files, fill PDF forms, merge and split documents.', 'Use pdfplumber to read pages.'),
  skill('docx', 'Create and edit Word documents with tracked changes.', 'A .docx file is a zip of XML.'),
  skill('xlsx', 'Spreadsheets: formulas, charts, pivot tables.', 'Read workbooks with openpyxl. Tables and PDF export.'),
  skill('pptx', 'Build slide decks and presentations.', 'Layouts, themes, speaker notes.'),
  skill('webapp-testing', 'Test local web applications with Playwright.', 'Screenshots, browser logs, pdf download checks.'),
  skill('brand-guidelines', 'Apply the brand colours and typography.', 'Colours: #112233.'),
  skill('changelog-writer', 'Write release notes and changelogs from commits.', 'Group by feature, fix and breaking change.'),
  skill('mcp-builder', 'Build MCP servers to connect models to external services.', 'FastMCP and the TypeScript SDK.', {
    scripts: true,
    risk: 'medium',
    security: { high: 0, medium: 1, low: 0, executable: true },
  }),
  skill('algorithmic-art', 'Generative art with p5.js.', 'Seeded randomness and flow fields.', { droppedBy: ['codex'] }),
];

function make(): SkillSearch {
  const s = SkillSearch.empty();
  s.sync('c', '1', CORPUS);
  return s;
}
const names = (s: SkillSearch, q: string, keep: (d: SearchDoc) => boolean = () => true) => s.search(q, keep, 5).map((h) => h.doc.name);

describe('ranking on a fixed corpus', () => {
  const s = make();
  it.each([
    ['pdf', 'pdf'],
    ['extract tables from pdf', 'pdf'],
    ['word documents', 'docx'],
    ['spreadsheet formulas', 'xlsx'],
    ['slides presentation', 'pptx'],
    ['playwright', 'webapp-testing'],
    ['release notes', 'changelog-writer'],
    ['mcp server', 'mcp-builder'],
    ['generative art', 'algorithmic-art'],
  ])('%s → %s first', (q, top) => {
    expect(names(s, q)[0]).toBe(top);
  });

  it('a name match ranks above a body mention', () => {
    const r = names(s, 'pdf');
    expect(r[0]).toBe('pdf');
    expect(r).toContain('xlsx'); // mentions PDF in its body only
    expect(r.indexOf('xlsx')).toBeGreaterThan(0);
  });

  it.each([
    ['spredsheet', 'xlsx'],
    ['playwrigt', 'webapp-testing'],
    ['presentaton', 'pptx'],
    ['changelgo', 'changelog-writer'],
  ])('typo %s still finds %s', (q, top) => {
    expect(names(s, q)[0]).toBe(top);
  });

  it('prefixes match while typing', () => {
    expect(names(s, 'spreadsh')[0]).toBe('xlsx');
  });

  it('filters apply before the limit', () => {
    expect(names(s, '', (d) => d.scripts)).toEqual(['mcp-builder']);
    expect(names(s, 'art', (d) => !d.droppedBy.includes('codex'))).not.toContain('algorithmic-art');
  });

  it('regex characters are text, a 10,000-character query is cut to its first words', () => {
    expect(() => s.search('.*[(+?', () => true, 5)).not.toThrow();
    expect(names(s, '(pdf)+')[0]).toBe('pdf');
    const long = `pdf ${'x'.repeat(9_990)}`;
    expect(names(s, long)[0]).toBe('pdf');
    expect(queryTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
    expect(queryTerms(`${'word '.repeat(2000)}late`)).toEqual(['word']); // past 10,000 characters: not read
  });

  it('function words are not indexed in descriptions and bodies: alone, they are read as a name being typed', () => {
    const t = SkillSearch.empty();
    t.sync('c', '1', [skill('pdf-forms', 'Fill in forms.'), skill('notes', 'Notes for meetings.', 'for each meeting, for each person')]);
    expect(names(t, 'for')).toEqual(['pdf-forms']);
    expect(names(t, 'notes for meetings')[0]).toBe('notes');
  });

  it('a word being typed is completed in names and descriptions, not in bodies', () => {
    // A short prefix expands to hundreds of words whose posting lists in bodies cover the catalog.
    expect(names(s, 'pdfplu')).toEqual([]);
    expect(names(s, 'pdfplumber')).toEqual(['pdf']);
    expect(names(s, 'presen')[0]).toBe('pptx');
  });

  it('updates incrementally: a changed, a removed and a new skill', () => {
    const t = make();
    t.sync('c', '2', [
      ...CORPUS.filter((x) => x.name !== 'pptx' && x.name !== 'docx'),
      { ...CORPUS[1]!, digest: 'new', description: 'Letters and memos.' },
      skill('keynote', 'Slide decks for Keynote.'),
    ]);
    expect(names(t, 'slides')[0]).toBe('keynote');
    expect(names(t, 'presentations')).not.toContain('pptx');
    expect(names(t, 'memos')[0]).toBe('docx');
    expect(names(t, 'tracked changes')).not.toContain('docx');
  });
});
