import type { MessageParam, MessageRef } from './contract/messages-text.js';
import { INPUT_MESSAGES } from './contract/messages-input.js';

// A refused input said as codes: which field, what is wrong with it (required, too long, wrong
// type...) and the limit, each a message key the window words in its language. zod's own English
// (`Too big: expected string to have <=100 characters`) never reaches a user; the issue's code and
// numbers are all that is read from it. Types only from zod: the lean CLI bundle stays without it.

/** The fields of a zod issue this reads (zod 4's `$ZodIssue`, loosely: any version's shape). */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  expected?: unknown;
  origin?: unknown;
  maximum?: unknown;
  minimum?: unknown;
  values?: readonly unknown[];
  keys?: readonly string[];
  /** A refinement's own parameters: `{ issue: 'not-absolute' }` names its `input.issue.*` key. */
  params?: unknown;
}

/** Issues worded at most; the rest are counted. */
const MAX_ISSUES = 4;
const MAX_VALUES = 8;

const LABELS = new Set(Object.keys(INPUT_MESSAGES).filter((k) => k.startsWith('input.field.')));
const TYPES = new Set(['string', 'number', 'boolean', 'array', 'object']);

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The field an issue is about: a known form field by its label, else its path as written (`skills.0.name`). */
function fieldOf(path: readonly PropertyKey[]): MessageParam {
  if (path.length === 0) return { key: 'input.field.input' };
  if (path.length === 1 && typeof path[0] === 'string') {
    const key = `input.field.${kebab(path[0])}`;
    if (LABELS.has(key)) return { key };
  }
  return path.map((p) => String(p)).join('.');
}

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function scalar(v: unknown): string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
}

/** True when nothing was given where the issue is: with the input at hand, by looking; else by zod's wording. */
function missing(issue: Issue, input: unknown, haveInput: boolean): boolean {
  if (haveInput) return valueAt(input, issue.path) === undefined;
  return /received undefined$/.test(issue.message ?? '');
}

/** One issue as a message. */
function issueMessage(issue: Issue, input: unknown, haveInput: boolean): MessageRef {
  const field = fieldOf(issue.path);
  const origin = typeof issue.origin === 'string' ? issue.origin : '';
  const max = num(issue.maximum);
  const min = num(issue.minimum);
  const text = origin === 'string';
  const list = origin === 'array' || origin === 'set';
  const amount = origin === 'number' || origin === 'int' || origin === 'bigint';
  switch (issue.code) {
    case 'invalid_type': {
      if (missing(issue, input, haveInput)) return { key: 'input.issue.required', params: { field } };
      const type = typeof issue.expected === 'string' && TYPES.has(issue.expected) ? issue.expected : 'other';
      return { key: 'input.issue.wrong-type', params: { field, expected: { key: `input.type.${type}` } } };
    }
    case 'too_big':
      if (max !== undefined && text) return { key: 'input.issue.too-long', params: { field, max } };
      if (max !== undefined && list) return { key: 'input.issue.too-many', params: { field, max } };
      if (max !== undefined && amount) return { key: 'input.issue.too-big', params: { field, max } };
      break;
    case 'too_small':
      if (min !== undefined && (text || list) && min <= 1) return { key: 'input.issue.empty', params: { field } };
      if (min !== undefined && text) return { key: 'input.issue.too-short', params: { field, min } };
      if (min !== undefined && list) return { key: 'input.issue.too-few', params: { field, min } };
      if (min !== undefined && amount) return { key: 'input.issue.too-small', params: { field, min } };
      break;
    case 'invalid_format':
    case 'invalid_string': // zod 3's name
      return { key: 'input.issue.bad-format', params: { field } };
    case 'invalid_value':
    case 'invalid_enum_value': // zod 3's name
      if (issue.values && issue.values.length > 0 && issue.values.length <= MAX_VALUES) {
        return { key: 'input.issue.one-of', params: { field, values: issue.values.map(scalar) } };
      }
      break;
    case 'custom': {
      const named = (issue.params as { issue?: unknown } | undefined)?.issue;
      const key = typeof named === 'string' ? `input.issue.${named}` : '';
      if (key in INPUT_MESSAGES) return { key, params: { field } };
      break;
    }
    case 'unrecognized_keys':
      return { key: 'input.issue.unknown-fields', params: { keys: [...(issue.keys ?? [])] } };
  }
  return { key: 'input.issue.invalid', params: { field } };
}

/**
 * The message of a refused input: its first issues worded, the rest counted. Give `input` (the
 * value that was parsed) when at hand, so a missing field is told from a wrong one by looking.
 */
export function invalidInput(issues: readonly Issue[], ...input: [unknown?]): MessageRef {
  const haveInput = input.length > 0;
  const worded: MessageRef[] = issues.slice(0, MAX_ISSUES).map((i) => issueMessage(i, input[0], haveInput));
  if (issues.length > MAX_ISSUES) worded.push({ key: 'input.more', params: { count: issues.length - MAX_ISSUES } });
  if (worded.length === 0) worded.push({ key: 'input.issue.invalid', params: { field: { key: 'input.field.input' } } });
  return { key: 'input.invalid', params: { issues: worded } };
}
