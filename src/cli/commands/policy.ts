import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { isGuardKind, GUARD_KINDS } from '../../agents/lean.js';
import { checkWrite, runHook } from '../hook.js';
import { UsageError, type CliCommandModule } from '../types.js';

const USAGE = `skilldock policy check-write <path> [--conversation ID] [--json]
skilldock policy check-write --hook [--conversation ID] [--format KIND]

Allowed: inside the conversation's workspace, a state dir of its skills, or the temp dir.
Denied: anything else; a skill folder (read-only); a legacy home path a skill mentions, with the
state-dir path to use instead. Exit 0 allowed, 1 denied.
--hook reads an agent's pre-tool hook call as JSON on stdin (the file path a tool would write, or a
shell command) and prints a deny decision with the suggested path as its reason; it prints nothing
when the write is allowed. --format names the agent's hook protocol (default claude-pretooluse):
${GUARD_KINDS.join(', ')}.`;

export const policyCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (action !== 'check-write') throw new UsageError(action ? `unknown action "${action}"` : 'expected an action: check-write');
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { conversation: { type: 'string' }, json: { type: 'boolean' }, hook: { type: 'boolean' }, format: { type: 'string' } },
    });
    if (values.format !== undefined && !values.hook) throw new UsageError('--format goes with --hook');
    if (values.hook) {
      if (positionals.length) throw new UsageError('--hook reads the path from stdin; give no path');
      const kind = values.format ?? 'claude-pretooluse';
      if (!isGuardKind(kind)) throw new UsageError(`unknown --format "${kind}" (one of ${GUARD_KINDS.join(', ')})`);
      return runHook(io, io.stdin ?? fs.readFileSync(0, 'utf8'), values.conversation, kind);
    }
    if (positionals.length !== 1) throw new UsageError('expected exactly one path');
    const d = await checkWrite(io, {
      path: positionals[0]!,
      cwd: io.cwd,
      ...(values.conversation ? { conversationId: values.conversation } : {}),
    });
    if (values.json) printJson(io, d);
    else {
      const c = io.color;
      io.out(`${d.allowed ? paint(c, 'green', 'allowed') : paint(c, 'red', 'denied')}  ${d.path}  ${paint(c, 'dim', `(${d.rule})`)}`);
      io.out(`  ${d.reason}`);
      if (d.redirect) io.out(`  suggested: ${d.redirect}`);
    }
    return d.allowed ? 0 : 1;
  },
};
