import { describe, expect, it } from 'vitest';
import type { AgentView, Catalog, CatalogEntry, Root, SkillRisk } from '../../../../src/contract/index';
import { EMPTY_FILTER, agentVerdict, buildIndex, filterCatalog, filterEntries, verdictFor, type ProblemFilter } from './skill-filter';

const roots: Root[] = [
  { id: 'library', kind: 'library', path: '/h/library', agents: [], precedence: 1, exists: true },
  { id: 'user:claude', kind: 'user', path: '/u/.claude/skills', agents: ['claude', 'opencode'], precedence: 2, exists: true },
  { id: 'user:agents', kind: 'user', path: '/u/.agents/skills', agents: ['codex', 'gemini'], precedence: 3, exists: true },
];

function entry(i: number, over: Partial<CatalogEntry> = {}): CatalogEntry {
  const root = roots[i % 3];
  return {
    id: `${root.id}/s${i}`,
    name: `skill-${i}`,
    dirName: `s${i}`,
    description: i % 7 === 0 ? `Handles PDF forms number ${i}` : `Does thing ${i}`,
    frontmatter: { name: `skill-${i}` },
    provenance: {
      rootId: root.id,
      rootKind: root.kind,
      rootPath: root.path,
      dir: `${root.path}/s${i}`,
      realPath: `${root.path}/s${i}`,
      linked: false,
    },
    digest: 'd',
    diagnostics: [],
    counts: { errors: i % 11 === 0 ? 1 : 0, warnings: i % 13 === 0 ? 2 : 0, infos: 0 },
    shadows: [],
    stateId: `skill-${i}`,
    legacyPaths: [],
    size: 10,
    fileCount: 1,
    ...over,
  };
}

const catalog = (n: number): Catalog => ({
  roots,
  entries: Array.from({ length: n }, (_, i) => entry(i, i === 5 ? { shadowedBy: 'library/s0' } : {})),
  rootDiagnostics: [],
  generation: 1,
});

describe('skill filter', () => {
  const c = catalog(10_000);
  const index = buildIndex(c.entries);

  it('searches name and description, case-insensitively', () => {
    const byDesc = filterEntries(c, index, { ...EMPTY_FILTER, query: 'pdf FORMS' });
    expect(byDesc.length).toBe(Math.ceil(10_000 / 7));
    expect(byDesc.every((e) => e.description.includes('PDF forms'))).toBe(true);
    expect(filterEntries(c, index, { ...EMPTY_FILTER, query: 'skill-9999' }).map((e) => e.name)).toEqual(['skill-9999']);
  });

  it('filters by root, by agent (roots it reads), by findings and shadowing', () => {
    expect(filterEntries(c, index, { ...EMPTY_FILTER, rootId: 'library' }).every((e) => e.provenance.rootId === 'library')).toBe(true);
    const codex = filterEntries(c, index, { ...EMPTY_FILTER, agent: 'codex' });
    expect(codex.length).toBeGreaterThan(0);
    expect(codex.every((e) => e.provenance.rootId === 'user:agents')).toBe(true);
    expect(filterEntries(c, index, { ...EMPTY_FILTER, problems: 'errors' }).every((e) => e.counts.errors > 0)).toBe(true);
    expect(filterEntries(c, index, { ...EMPTY_FILTER, problems: 'warnings' }).every((e) => e.counts.warnings > 0)).toBe(true);
    expect(filterEntries(c, index, { ...EMPTY_FILTER, problems: 'clean' }).every((e) => e.counts.errors + e.counts.warnings === 0)).toBe(
      true,
    );
    expect(filterEntries(c, index, { ...EMPTY_FILTER, shadowedOnly: true }).map((e) => e.name)).toEqual(['skill-5']);
  });

  it('a high scan finding counts as an error, a medium one as a warning; "security" keeps both', () => {
    const risk = (id: string, high: number, medium: number): [string, SkillRisk] => [
      id,
      { entryId: id, name: id, high, medium, low: 0, findings: [] },
    ];
    // s1 and s2 have no lint findings (1 % 11, 2 % 13): only the scan speaks for them.
    const risks = new Map([risk('user:claude/s1', 1, 0), risk('user:agents/s2', 0, 3), risk('library/s3', 0, 0)]);
    const ids = (problems: ProblemFilter) => filterEntries(c, index, { ...EMPTY_FILTER, problems }, risks).map((e) => e.id);
    expect(ids('errors')).toContain('user:claude/s1');
    expect(ids('errors')).not.toContain('user:agents/s2');
    expect(ids('warnings')).toContain('user:agents/s2');
    expect(ids('security')).toEqual(['user:claude/s1', 'user:agents/s2']);
    expect(ids('clean')).not.toContain('user:claude/s1');
    expect(ids('clean')).toContain('library/s3');
    // Without scan results the lint counts alone decide, as before.
    expect(filterEntries(c, index, { ...EMPTY_FILTER, problems: 'errors' }).map((e) => e.id)).not.toContain('user:claude/s1');
    // A result computed before the scan arrived is not narrowed from once it has.
    const before = filterCatalog(c, index, { ...EMPTY_FILTER, problems: 'security', query: 'skill' });
    expect(before.entries).toEqual([]);
    const after = filterCatalog(c, index, { ...EMPTY_FILTER, problems: 'security', query: 'skill-' }, before, risks);
    expect(after.entries.map((e) => e.id)).toEqual(['user:claude/s1', 'user:agents/s2']);
  });

  it('narrowing from the previous result gives the same answer as a full scan', () => {
    let prev = filterCatalog(c, index, { ...EMPTY_FILTER, query: 's' });
    for (const q of ['sk', 'skill-1', 'skill-12', 'skill-123']) {
      const next = filterCatalog(c, index, { ...EMPTY_FILTER, query: q }, prev);
      expect(next.entries.map((e) => e.id)).toEqual(filterEntries(c, index, { ...EMPTY_FILTER, query: q }).map((e) => e.id));
      prev = next;
    }
    // Widening (backspace) or another filter must not reuse the narrower result.
    const wide = filterCatalog(c, index, { ...EMPTY_FILTER, query: 'skill-1' }, prev);
    expect(wide.entries.length).toBe(filterEntries(c, index, { ...EMPTY_FILTER, query: 'skill-1' }).length);
    const other = filterCatalog(c, index, { ...EMPTY_FILTER, query: 'skill-123', problems: 'errors' }, prev);
    expect(other.entries.every((e) => e.counts.errors > 0)).toBe(true);
  });

  it('answers a keystroke over 10,000 skills well under the 100 ms budget', () => {
    const t0 = performance.now();
    for (const q of ['s', 'sk', 'ski', 'skil', 'skill-1', 'pdf']) filterEntries(c, index, { ...EMPTY_FILTER, query: q });
    const perKeystroke = (performance.now() - t0) / 6;
    expect(perKeystroke).toBeLessThan(50);
  });
});

describe('per-agent verdict', () => {
  const diag = {
    code: 'metadata-not-map',
    severity: 'error' as const,
    message: 'metadata is not a map',
    file: 'SKILL.md',
    line: 3,
    agents: ['codex'],
  };

  it('a finding that names the agent means that agent drops it; others still load it', () => {
    const e = entry(2, { diagnostics: [diag] });
    expect(agentVerdict(e, roots[2], 'codex')).toEqual({
      kind: 'dropped',
      reasons: [expect.objectContaining({ message: 'metadata is not a map' })],
    });
    expect(agentVerdict(e, roots[2], 'gemini')).toEqual({ kind: 'loads' });
    expect(agentVerdict(e, roots[2], 'claude')).toEqual({ kind: 'not-read' });
  });

  it('a library skill reaches agents through a launch, and still says who would drop it', () => {
    const e = entry(0, { diagnostics: [diag] });
    expect(verdictFor(e, roots[0], 'claude', undefined)).toEqual({ kind: 'via-launch' });
    expect(verdictFor(e, roots[0], 'codex', undefined)).toEqual({
      kind: 'dropped',
      reasons: [expect.objectContaining({ message: 'metadata is not a map' })],
    });
  });

  it("the engine's agent view wins over the catalog guess", () => {
    const e = entry(1);
    const view = {
      agent: { id: 'claude', name: 'Claude Code' },
      skills: [
        {
          entryId: e.id,
          identifier: 's1',
          name: e.name,
          rootId: 'user:claude',
          dir: '/x',
          status: 'shadowed',
          reasons: [],
          shadowedBy: 'user:claude/other',
          catalogChars: 0,
        },
      ],
    } as unknown as AgentView;
    expect(verdictFor(e, roots[1], 'claude', view)).toEqual({ kind: 'shadowed', by: 'user:claude/other' });
  });
});
