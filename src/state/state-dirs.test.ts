import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureStateDir, resolveStateUri, stateDirFor, stateRoot } from './state-dirs.js';
import { stateIdFor } from './state-id.js';
import { formatMessage, type MessageRef } from '../contract/index.js';
import { SkillDockError } from '../errors.js';

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-state-')));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('state dirs', () => {
  it('ids made from hostile names stay one segment inside skills-state', () => {
    const hostile = ['../../etc', '..', '.', 'a/../../b', '..\\..\\win', '/abs/path', 'C:\\x', 'nul', 'a\0b', '~/code', '%2e%2e'];
    for (const name of hostile) {
      const id = stateIdFor(name, '../1.0');
      if (id === null) continue;
      const dir = ensureStateDir(home, id);
      expect(path.dirname(dir)).toBe(stateRoot(home));
      expect(fs.statSync(dir).isDirectory()).toBe(true);
    }
    expect(fs.readdirSync(home)).toEqual(['skills-state']);
  });

  it('refuses an id that is not a safe segment', () => {
    for (const id of ['..', '../x', 'a/b', 'a\\b', '', '.hidden', 'x..y', 'CON']) {
      expect(() => stateDirFor(home, id)).toThrow(/Invalid state id/);
    }
  });

  it('refuses a state dir that is a link', () => {
    const outside = path.join(home, 'outside');
    fs.mkdirSync(outside);
    fs.mkdirSync(stateRoot(home));
    fs.symlinkSync(outside, path.join(stateRoot(home), 'evil'));
    expect(() => ensureStateDir(home, 'evil')).toThrow(/not a plain directory/);
  });
});

describe('skill://state/ URIs', () => {
  it('resolves a path inside the state dir', () => {
    ensureStateDir(home, 'code-1.0.4');
    const r = resolveStateUri(home, 'skill://state/code-1.0.4/notes/memory.md');
    expect(r).toEqual({
      uri: 'skill://state/code-1.0.4/notes/memory.md',
      id: 'code-1.0.4',
      path: path.join(home, 'skills-state', 'code-1.0.4', 'notes', 'memory.md'),
      exists: false,
    });
    expect(resolveStateUri(home, 'skill://state/code-1.0.4/').path).toBe(path.join(home, 'skills-state', 'code-1.0.4'));
  });

  it('refuses traversal, encoded or not', () => {
    ensureStateDir(home, 'code');
    for (const uri of [
      'skill://state/code/../other/x',
      'skill://state/code/%2e%2e/other',
      'skill://state/code/a%2f..%2f..%2fx',
      'skill://state/code/..%5c..%5cx',
      'skill://state/../etc/passwd',
      'skill://state/%2e%2e/etc',
      'skill://state/code/%00x',
    ]) {
      expect(() => resolveStateUri(home, uri), uri).toThrow(/leaves its state dir|Invalid state id|Bad escape/);
    }
    expect(() => resolveStateUri(home, 'file:///etc/passwd')).toThrow(/Not a state URI/);
  });

  it('refuses a path that leaves the state dir through a link inside it', () => {
    const dir = ensureStateDir(home, 'code');
    const outside = path.join(home, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(dir, 'escape'));
    expect(() => resolveStateUri(home, 'skill://state/code/escape/x')).toThrow(/outside its state dir through a link/);
  });
});

describe('refusals as messages (words for the window: key and parameters)', () => {
  function refusal(run: () => unknown): { code: string; msg: MessageRef | undefined } {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(SkillDockError);
      const e = err as SkillDockError;
      expect(e.message).toBe(formatMessage(e.msg!));
      return { code: e.code, msg: e.msg };
    }
    throw new Error('expected a refusal');
  }

  it('each refusal carries its key and the id, path or URI it is about', () => {
    const dir = ensureStateDir(home, 'code');
    expect(refusal(() => stateDirFor(home, '../x'))).toEqual({ code: 'refused', msg: { key: 'state.invalid-id', params: { id: '../x' } } });
    const uri = 'file:///etc/passwd';
    expect(refusal(() => resolveStateUri(home, uri))).toEqual({
      code: 'bad-request',
      msg: { key: 'state.not-uri', params: { prefix: 'skill://state/', uri } },
    });
    const bad = 'skill://state/code/%E0%A4%A';
    expect(refusal(() => resolveStateUri(home, bad))).toEqual({ code: 'refused', msg: { key: 'state.bad-escape', params: { uri: bad } } });
    const up = 'skill://state/code/%2e%2e/other';
    expect(refusal(() => resolveStateUri(home, up))).toEqual({ code: 'refused', msg: { key: 'state.uri-leaves', params: { uri: up } } });
    fs.mkdirSync(path.join(home, 'outside'));
    fs.symlinkSync(path.join(home, 'outside'), path.join(dir, 'escape'));
    const link = 'skill://state/code/escape/x';
    expect(refusal(() => resolveStateUri(home, link))).toEqual({
      code: 'refused',
      msg: { key: 'state.uri-link-outside', params: { uri: link } },
    });
    fs.symlinkSync(path.join(home, 'outside'), path.join(stateRoot(home), 'evil'));
    expect(refusal(() => ensureStateDir(home, 'evil'))).toEqual({
      code: 'refused',
      msg: { key: 'state.dir-not-plain', params: { path: path.join(stateRoot(home), 'evil') } },
    });
  });
});
