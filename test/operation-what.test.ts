import { describe, expect, it } from 'vitest';
import { OperationKindSchema } from '../src/contract/library.js';
import { operationWhat } from '../src/contract/operation-what.js';
import { JOURNAL_DEPLOY } from '../src/deploy/service.js';
import { JOURNAL_PIN, JOURNAL_UNPIN } from '../src/sources/pin.js';
import { JOURNAL_APPROVE, JOURNAL_REVOKE } from '../src/security/security-service.js';

// Every operation a toast or History names has words of its own: the fallback `journal.what.other`
// puts the journal's op code ("deploy 操作") into the user's sentence, in English.

const NOT_NAMED = new Set(['undo', 'redo', 'recovered', 'damaged']); // History rows, never a toast's subject
/** Operations that act on one skill at a time. */
const ONE_AT_A_TIME = new Set(['create', 'edit', 'scripts-revoke']);

describe('operation words', () => {
  const ops = [...new Set([...OperationKindSchema.options, JOURNAL_DEPLOY, JOURNAL_PIN, JOURNAL_UNPIN, JOURNAL_APPROVE, JOURNAL_REVOKE])];
  it('every journal op is a known operation kind (History words it)', () => {
    for (const op of [JOURNAL_DEPLOY, JOURNAL_PIN, JOURNAL_UNPIN, JOURNAL_APPROVE, JOURNAL_REVOKE])
      expect(OperationKindSchema.safeParse(op).success, op).toBe(true);
  });
  it.each(ops.filter((op) => !NOT_NAMED.has(op)))('%s: one skill and many have words, not the op code', (op) => {
    for (const skills of ONE_AT_A_TIME.has(op) ? [['a']] : [['a'], ['a', 'b']]) {
      const m = operationWhat({ op, skills, agent: 'Claude Code', path: 'SKILL.md', project: '/p' });
      expect(m.key).not.toMatch(/^journal\.what\.other/);
    }
  });
});
