import { describe, expect, it } from 'vitest';
import { homeAsTilde, shellWriteTargets } from './shell-targets.js';

describe('paths a shell command would write', () => {
  it.each([
    ['mkdir -p ~/code', ['~/code']],
    ['mkdir -p "$HOME/code/notes" && touch ~/code/memory.md', ['$HOME/code/notes', '~/code/memory.md']],
    ['echo "remember" >> ~/code/memory.md', ['~/code/memory.md']],
    ['cat a.txt | tee -a /tmp/log ~/.skilldock/approvals.json', ['/tmp/log', '~/.skilldock/approvals.json']],
    ['cp notes.md ~/code/', ['~/code/']],
    ['sudo mv x /etc/passwd; ls -la ~', ['/etc/passwd']],
    ['dd if=/dev/zero of=/tmp/z bs=1 count=1', ['/tmp/z']],
    ["echo 'a > b' > out.txt", []], // quoted > is text; a relative target lands in the working folder
    ['npm test 2>&1 | grep ok', []],
    ['ls ~/code && cat ~/code/memory.md', []],
  ])('%s', (line, want) => {
    expect(shellWriteTargets(line)).toEqual(want);
  });
  it('writes $HOME as ~', () => {
    expect(homeAsTilde('$HOME/code')).toBe('~/code');
    expect(homeAsTilde('${HOME}')).toBe('~');
    expect(homeAsTilde('$HOMER/x')).toBe('$HOMER/x');
  });
});
