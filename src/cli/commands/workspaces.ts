import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule } from '../types.js';

const USAGE = `skilldock workspaces <action> [options]

  list [--all] [--json]                            recorded conversations (--all: with removed ones)
  clean [--older-than 7d] [--dry-run] [--json]     remove unused temporary workspaces SkillDock made

Durations: 7d, 12h, 30m, 45s (default unit: days; default: settings.workspaceCleanupDays).
Cleanup never follows links (the skills behind them stay intact), never touches a workspace you
chose, and keeps a workspace in use (its agent still runs, or a process has its cwd inside).`;

export const workspacesCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const [action, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        all: { type: 'boolean' },
        'older-than': { type: 'string' },
        'dry-run': { type: 'boolean' },
      },
    });
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const api = io.service().api;
    const { formatAge, parseDuration } = await import('../../workspaces/index.js');
    const c = io.color;
    if (action === 'list') {
      const all = await api.listWorkspaces({});
      const shown = values.all ? all : all.filter((w) => !w.removedAt);
      if (values.json) {
        printJson(io, shown);
        return 0;
      }
      if (!shown.length) io.out(paint(c, 'dim', 'No workspaces.'));
      for (const w of shown) {
        const state = w.removedAt
          ? paint(c, 'dim', `removed ${w.removedAt}`)
          : w.inUse
            ? paint(c, 'green', `in use (${w.inUseReason})`)
            : `idle ${formatAge(w.ageMs)}`;
        io.out(
          `${paint(c, 'bold', w.conversationId)}  ${w.agent}  ${w.temporary ? 'temporary' : 'yours'}  ${w.skills.length} skills  ${state}`,
        );
        io.out(`  ${paint(c, 'dim', w.workspace)}${w.exists ? '' : paint(c, 'yellow', '  (gone)')}`);
      }
      return 0;
    }
    if (action === 'clean') {
      let olderThanMs: number | undefined;
      if (values['older-than'] !== undefined) {
        const ms = parseDuration(values['older-than']);
        if (ms === null) throw new UsageError(`bad duration "${values['older-than']}" (use e.g. 7d, 12h, 30m)`);
        olderThanMs = ms;
      }
      const r = await api.cleanWorkspaces({ ...(olderThanMs !== undefined ? { olderThanMs } : {}), dryRun: Boolean(values['dry-run']) });
      if (values.json) {
        printJson(io, r);
        return 0;
      }
      const verb = r.dryRun ? 'would remove' : 'removed';
      for (const x of r.removed) {
        const what = x.temporary ? x.workspace : `skills view only; your workspace ${x.workspace} is kept`;
        const links = r.dryRun ? '' : `, ${x.linksRemoved} links unlinked`;
        io.out(`${verb}  ${x.conversationId}  ${paint(c, 'dim', `(${what}${links})`)}`);
      }
      for (const x of r.kept) io.out(`kept  ${x.conversationId}  ${paint(c, 'dim', x.reason)}`);
      io.out(`${r.removed.length} ${verb}, ${r.kept.length} kept`);
      return 0;
    }
    throw new UsageError(action ? `unknown action "${action}"` : 'expected an action: list or clean');
  },
};
