import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { SkillDockError } from '../errors.js';
import { spawnTerminal, terminalArgv } from './terminal.js';

describe('opening a terminal', () => {
  it('refuses at once on Linux without a display, instead of claiming a terminal opened', () => {
    let err: unknown;
    try {
      terminalArgv('', '/tmp/x.sh', '/tmp', 'linux', { PATH: process.env.PATH });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SkillDockError);
    expect((err as SkillDockError).msg?.key).toBe('launch.no-display');
  });

  it('a terminal that exits at once with an error is a failure, one that stays up or exits 0 is opened', async () => {
    await expect(spawnTerminal(['sh', '-c', 'exit 3'], os.tmpdir())).rejects.toMatchObject({ msg: { key: 'launch.terminal-exited' } });
    await expect(spawnTerminal(['sh', '-c', 'exit 0'], os.tmpdir())).resolves.toBeUndefined();
    await expect(spawnTerminal(['sh', '-c', 'sleep 1.5'], os.tmpdir())).resolves.toBeUndefined();
    await expect(spawnTerminal(['/nonexistent/terminal'], os.tmpdir())).rejects.toMatchObject({ msg: { key: 'launch.terminal-failed' } });
  });
});
