import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * See which git commands SkillDock runs: SKILLDOCK_GIT becomes a shell script in `dir` that logs
 * its arguments and runs the real git. `commands()` returns the subcommands logged since the last
 * call (what follows the `-c key=value` pairs); `restore()` puts SKILLDOCK_GIT back.
 */
export function logGitCommands(dir: string): { commands(): string[]; restore(): void } {
  const log = path.join(dir, 'git-commands.log');
  const real = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  const wrapper = path.join(dir, 'git-logged');
  fs.writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  const saved = process.env.SKILLDOCK_GIT;
  process.env.SKILLDOCK_GIT = wrapper;
  return {
    commands() {
      const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      fs.writeFileSync(log, '');
      return lines.map((l) => {
        const a = l.split(' ');
        for (let i = 0; i < a.length; i++)
          if (a[i] === '-c') i++;
          else return a[i]!;
        return '';
      });
    },
    restore() {
      if (saved === undefined) delete process.env.SKILLDOCK_GIT;
      else process.env.SKILLDOCK_GIT = saved;
    },
  };
}
