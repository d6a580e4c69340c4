import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatMessage, type ErrorInfo, type MessageRef } from './contract/index.js';
import { CreateAssistantInputSchema } from './contract/assistants.js';
import { toErrorInfo } from './errors.js';
import type { SkillDockService } from './service.js';
import { makeEnv, writeSkill, type TestEnv } from '../test/support/assistants.js';

// A refused input reaches the window as codes (issue 12): each zod issue is a field and a coded
// problem with its limit, never zod's English ("Too big: expected string to have <=100 characters").

let env: TestEnv;
let svc: SkillDockService;
beforeEach(() => {
  env = makeEnv();
  writeSkill(path.join(env.home, 'library'), 'pdf');
  svc = env.service();
});
afterEach(async () => {
  await env.cleanup();
});

/** The issues of a keyed `input.invalid` error, checked to carry no zod text. */
function issuesOf(error: ErrorInfo): MessageRef[] {
  expect(error.code).toBe('bad-request');
  expect(error.msg?.key).toBe('input.invalid');
  expect(error.message).toBe(formatMessage(error.msg!));
  expect(error.message).not.toMatch(/expected string|received|Too big|Too small|Invalid option/);
  return error.msg!.params!.issues as MessageRef[];
}

async function refused(method: string, input: unknown): Promise<MessageRef[]> {
  const r = await svc.call(method, input);
  expect(r.ok).toBe(false);
  return issuesOf((r as { error: ErrorInfo }).error);
}

describe('refused input through service.call (what the window and the browser use)', () => {
  it('an assistant name too long names the field and the limit', async () => {
    const issues = await refused('createAssistant', { name: 'x'.repeat(120), agent: 'claude' });
    expect(issues).toEqual([{ key: 'input.issue.too-long', params: { field: { key: 'input.field.name' }, max: 100 } }]);
    const r = await svc.call('createAssistant', { name: 'x'.repeat(120), agent: 'claude' });
    expect(!r.ok && r.error.message).toBe('Invalid input: name is too long (at most 100 characters)');
    expect(!r.ok && r.error.details).toEqual({ method: 'createAssistant' });
    // The assistants service checks its input itself too (the CLI calls it without service.call).
    const direct = await svc.api.createAssistant({ name: 'x'.repeat(120), agent: 'claude' }).then(
      () => undefined,
      (err: unknown) => toErrorInfo(err),
    );
    expect(issuesOf(direct!)).toEqual(issues);
  });

  it('missing, wrong type, empty, control characters, an unknown choice', async () => {
    expect(await refused('createAssistant', { agent: 'claude' })).toEqual([
      { key: 'input.issue.required', params: { field: { key: 'input.field.name' } } },
    ]);
    expect(await refused('createAssistant', { name: 7, agent: 'claude' })).toEqual([
      { key: 'input.issue.wrong-type', params: { field: { key: 'input.field.name' }, expected: { key: 'input.type.string' } } },
    ]);
    expect(await refused('createAssistant', { name: '   ', agent: '' })).toEqual([
      { key: 'input.issue.empty', params: { field: { key: 'input.field.name' } } },
      { key: 'input.issue.empty', params: { field: { key: 'input.field.agent' } } },
    ]);
    expect(await refused('createAssistant', { name: 'a\u0007b', agent: 'claude' })).toEqual([
      { key: 'input.issue.bad-format', params: { field: { key: 'input.field.name' } } },
    ]);
    const made = await svc.api.createAssistant({ name: 'Keeper', agent: 'claude' });
    expect(await refused('updateAssistant', { assistant: made.id, defaultWorkspace: 'relative/dir' })).toEqual([
      { key: 'input.issue.not-absolute', params: { field: { key: 'input.field.default-workspace' } } },
    ]);
    const theme = await refused('updateSettings', { theme: 'purple' });
    expect(theme).toHaveLength(1);
    expect(theme[0].key).toBe('input.issue.one-of');
    expect(theme[0].params!.field).toBe('theme');
    expect(theme[0].params!.values).toEqual(expect.arrayContaining(['light', 'dark']));
  });

  it('a nested field is named by its path; past four issues the rest are counted', async () => {
    // A skill pick is a name or a {name, rootId}: neither, said of the pick as a whole.
    const pick = await refused('attachSkills', { assistant: 'x', skills: [{ name: 5 }] });
    expect(pick).toEqual([{ key: 'input.issue.invalid', params: { field: 'skills.0' } }]);
    const Nested = z.object({ skills: z.array(z.object({ name: z.string() })) });
    expect(issuesOf(toErrorInfo(Nested.safeParse({ skills: [{ name: 5 }] }).error))).toEqual([
      { key: 'input.issue.wrong-type', params: { field: 'skills.0.name', expected: { key: 'input.type.string' } } },
    ]);
    const Many = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string(), f: z.string() });
    const info = toErrorInfo(Many.safeParse({}).error);
    const issues = issuesOf(info);
    expect(issues).toHaveLength(5);
    expect(issues[4]).toEqual({ key: 'input.more', params: { count: 2 } });
    expect(info.message).toBe('Invalid input: a is required, b is required, c is required, d is required, and 2 more problems');
  });
});

describe('a ZodError thrown anywhere (toErrorInfo)', () => {
  it('is keyed: a missing field from zod’s issue, limits from its numbers, unknown fields listed', () => {
    let thrown: unknown;
    try {
      CreateAssistantInputSchema.strict().parse({ name: 'y'.repeat(101), extra: 1 });
    } catch (err) {
      thrown = err;
    }
    const info = toErrorInfo(thrown);
    expect(info.msg).toBeDefined();
    expect(issuesOf(info)).toEqual([
      { key: 'input.issue.too-long', params: { field: { key: 'input.field.name' }, max: 100 } },
      { key: 'input.issue.required', params: { field: { key: 'input.field.agent' } } },
      { key: 'input.issue.unknown-fields', params: { keys: ['extra'] } },
    ]);
    const n = toErrorInfo(
      z.object({ n: z.number().min(2).max(5), list: z.array(z.string()).min(2).max(3) }).safeParse({ n: 9, list: ['a'] }).error,
    );
    expect(issuesOf(n)).toEqual([
      { key: 'input.issue.too-big', params: { field: 'n', max: 5 } },
      { key: 'input.issue.too-few', params: { field: 'list', min: 2 } },
    ]);
  });
});
