import { describe, expect, it } from 'vitest';
import { readFrontmatter, setField, setMetadata } from './frontmatter-edit';

const DOC = `---
# who we are
name: pdf-tools   # keep this comment
description: 'Extract text, it''s quick'
license: MIT
metadata:
  version: "1.0"
  author: me # mine
x-extra: [1, 2]
---

# Body
`;

describe('frontmatter form <-> raw text', () => {
  it('reads the fields, metadata, and what only the raw text can edit', () => {
    const v = readFrontmatter(DOC)!;
    expect(v.values).toEqual({
      name: 'pdf-tools',
      description: "Extract text, it's quick",
      license: 'MIT',
      compatibility: null,
      'allowed-tools': null,
    });
    expect(v.metadata).toEqual([
      ['version', '1.0'],
      ['author', 'me'],
    ]);
    expect(v.metadataLocked).toBe(false);
    expect(readFrontmatter('no frontmatter')).toBeNull();
    expect(readFrontmatter('---\nname: [unclosed\n---\n')).toBeNull();
    expect(readFrontmatter('---\nname: [a, b]\ndescription: x\n---\n')!.locked).toEqual(['name']);
  });

  it('changes one value and keeps comments, order, quoting and everything else byte for byte', () => {
    const a = setField(DOC, 'name', 'pdf-kit');
    expect(a).toBe(DOC.replace('name: pdf-tools   #', 'name: pdf-kit   #'));
    const b = setField(DOC, 'description', "Now it's: faster");
    expect(b).toBe(DOC.replace(`'Extract text, it''s quick'`, `'Now it''s: faster'`));
    expect(readFrontmatter(b)!.values.description).toBe("Now it's: faster");
    const c = setField(DOC, 'license', '');
    expect(c).toBe(DOC.replace('license: MIT\n', ''));
    const d = setField(DOC, 'compatibility', 'Needs git 2.40 or later');
    expect(d).toBe(DOC.replace('x-extra: [1, 2]\n', 'x-extra: [1, 2]\ncompatibility: Needs git 2.40 or later\n'));
    // values YAML would read as something else are quoted
    const e = setField(DOC, 'allowed-tools', 'yes');
    expect(readFrontmatter(e)!.values['allowed-tools']).toBe('yes');
    const f = setField(DOC, 'license', '# not a comment: really');
    expect(readFrontmatter(f)!.values.license).toBe('# not a comment: really');
  });

  it('a block scalar description is replaced without swallowing the next key', () => {
    const doc = '---\nname: a\ndescription: |\n  line one\n  line two\nlicense: MIT\n---\nbody\n';
    const out = setField(doc, 'description', 'one line');
    expect(out).toBe('---\nname: a\ndescription: one line\nlicense: MIT\n---\nbody\n');
  });

  it('metadata: change, remove and add entries in place', () => {
    const out = setMetadata(DOC, [
      ['version', '1.1'],
      ['team', 'docs'],
    ]);
    expect(out).toContain('  version: "1.1"\n  team: docs\nx-extra');
    expect(out).not.toContain('author');
    expect(readFrontmatter(out)!.metadata).toEqual([
      ['version', '1.1'],
      ['team', 'docs'],
    ]);
    expect(setMetadata(DOC, [])).not.toContain('metadata');
    const fresh = setMetadata('---\nname: a\ndescription: b\n---\n', [['owner', 'me']]);
    expect(fresh).toBe('---\nname: a\ndescription: b\nmetadata:\n  owner: me\n---\n');
  });
});
