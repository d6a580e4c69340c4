import { describe, expect, it } from 'vitest';
import { SkillDockError } from '../errors.js';
import { parseSource } from './parse.js';

function refused(input: string, reason: string, ref?: string): void {
  try {
    parseSource(input, ref ? { ref } : {});
  } catch (e) {
    expect(e).toBeInstanceOf(SkillDockError);
    const err = e as SkillDockError;
    expect(err.msg?.params?.source).toBe(input.trim());
    if (reason === 'bad-ref') expect(err.msg?.key).toBe('sources.bad-ref');
    else expect(err.msg?.params?.reason).toEqual({ key: `sources.reason.${reason}` });
    return;
  }
  throw new Error(`expected ${input} to be refused`);
}

describe('parseSource', () => {
  it('reads GitHub owner/repo and owner/repo/path shorthand', () => {
    expect(parseSource('acme/skills')).toEqual({
      given: 'acme/skills',
      kind: 'git',
      url: 'https://github.com/acme/skills.git',
      subpath: '',
      key: 'github.com/acme/skills',
    });
    const p = parseSource('acme/skills/skills/pdf-tools', { ref: 'v1.2' });
    expect(p.url).toBe('https://github.com/acme/skills.git');
    expect(p.subpath).toBe('skills/pdf-tools');
    expect(p.ref).toBe('v1.2');
  });

  it('reads GitHub and GitLab tree URLs with ref and path', () => {
    const gh = parseSource('https://github.com/Acme/Skills/tree/main/skills/pdf');
    expect(gh).toMatchObject({
      kind: 'git',
      url: 'https://github.com/Acme/Skills',
      ref: 'main',
      subpath: 'skills/pdf',
      key: 'github.com/acme/skills',
    });
    const blob = parseSource('https://github.com/acme/skills/blob/dev/skills/pdf/SKILL.md');
    expect(blob).toMatchObject({ ref: 'dev', subpath: 'skills/pdf' });
    const gl = parseSource('https://gitlab.com/group/sub/repo/-/tree/release/a/b');
    expect(gl).toMatchObject({
      kind: 'git',
      url: 'https://gitlab.com/group/sub/repo',
      ref: 'release',
      subpath: 'a/b',
      key: 'gitlab.com/group/sub/repo',
    });
    // --ref wins over the ref inside the URL
    expect(parseSource('https://github.com/acme/skills/tree/main/x', { ref: 'v2' }).ref).toBe('v2');
  });

  it('reads git URLs of every scheme, keeping the same key for the same repository', () => {
    expect(parseSource('https://example.org/a/b.git')).toMatchObject({
      url: 'https://example.org/a/b.git',
      key: 'example.org/a/b',
      subpath: '',
    });
    expect(parseSource('http://127.0.0.1:8080/repos/r.git/')).toMatchObject({
      url: 'http://127.0.0.1:8080/repos/r.git',
      key: '127.0.0.1:8080/repos/r',
    });
    expect(parseSource('git://127.0.0.1:9418/r.git')).toMatchObject({
      kind: 'git',
      url: 'git://127.0.0.1:9418/r.git',
      key: '127.0.0.1:9418/r',
    });
    expect(parseSource('ssh://git@host.example/o/r.git')).toMatchObject({ url: 'ssh://git@host.example/o/r.git', key: 'host.example/o/r' });
    expect(parseSource('git@github.com:acme/skills.git')).toMatchObject({
      url: 'git@github.com:acme/skills.git',
      key: 'github.com/acme/skills',
    });
    expect(parseSource('file:///srv/git/r.git')).toMatchObject({ url: 'file:///srv/git/r.git', key: 'file/srv/git/r' });
  });

  it('reads local repository paths through the resolver', () => {
    const p = parseSource('./repo/', { resolveLocal: (s) => `/home/u/${s.replace(/^\.\//, '')}` });
    expect(p).toMatchObject({ kind: 'git', url: 'file:///home/u/repo', subpath: '' });
    expect(parseSource('/abs/repo').url).toBe('file:///abs/repo');
  });

  it('reads direct archive URLs', () => {
    for (const u of [
      'https://example.org/dl/pack.zip',
      'https://example.org/x.skill',
      'https://example.org/x.tar.gz',
      'file:///tmp/a.tgz',
    ]) {
      expect(parseSource(u).kind).toBe('archive');
    }
  });

  it('refuses what it cannot read, naming the source and the reason', () => {
    refused('', 'empty');
    refused('acme skills', 'whitespace');
    refused('--upload-pack=evil', 'dash');
    refused('ftp://example.org/r.git', 'scheme');
    refused('https://github.com/acme/skills/issues/4', 'github-path');
    refused('https://github.com/acme/skills/tree/main/../../etc', 'github-path'); // the URL parser resolves the dots first
    refused('https://github.com/acme/skills/tree/main/a%2F..%2F..%2Fetc', 'path');
    refused('acme/skills/a/%2e%2e/b', 'path');
    refused('just-a-word', 'unknown');
    refused('acme/skills', 'bad-ref', '--output=x');
    // These pass the character check: only the leading-dash rule refuses them.
    refused('acme/skills', 'bad-ref', '--negotiate-only');
    refused('acme/skills', 'bad-ref', '-main');
    refused('acme/skills', 'bad-ref', 'a..b');
  });
});
