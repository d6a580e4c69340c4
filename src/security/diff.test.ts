import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './diff.js';

// The approval diff's own format: what `patch` and a reviewer expect of a unified diff.

const numbered = (n: number, mark: (i: number) => string = () => '') =>
  Array.from({ length: n }, (_, i) => `line ${i}${mark(i)}`).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('writes a removed line before the line that replaces it', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nB\nc\n')).toBe('--- approved\n+++ current\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });

  it('a file that was empty or is gone has an empty range, not an empty line', () => {
    expect(unifiedDiff('', 'x\ny\n', { from: '/dev/null', to: 'run.sh' })).toBe('--- /dev/null\n+++ run.sh\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedDiff('x\ny\n', '')).toBe('--- approved\n+++ current\n@@ -1,2 +0,0 @@\n-x\n-y\n');
  });

  it('equal texts give nothing; line ends alone are no change; a lost final newline is shown', () => {
    expect(unifiedDiff('same\n', 'same\n')).toBe('');
    expect(unifiedDiff('a\r\nb\r\n', 'a\nb\n')).toBe('');
    expect(unifiedDiff('a\nb', 'a\nb\n')).toContain('\\ No newline at end of file');
  });

  it('shows a few changes scattered through a long file, and gives up on a wholesale rewrite', () => {
    const d = unifiedDiff(
      numbered(20_000),
      numbered(20_000, (i) => (i % 500 === 7 ? ' (edited)' : '')),
    );
    expect(d).not.toBeNull();
    expect(d!.match(/^@@ /gm)).toHaveLength(40);
    expect(d).toContain('\n-line 19507\n+line 19507 (edited)\n');
    expect(
      unifiedDiff(
        numbered(3000),
        numbered(3000, () => '!'),
      ),
    ).toBeNull();
  });
});
