import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { LaunchResult } from '../../contract/index.js';
import { paint, printJson, shellLine } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

const ON_CHANGED = ['refuse', 'skip', 'omit'] as const;
type OnChanged = (typeof ON_CHANGED)[number];

// Problems that leave a skill out of the conversation: the launch counts as failed (exit 1).
// (`script-omitted` is not one: the user asked for it with --on-changed omit.)
const FATAL = new Set(['missing', 'link-failed', 'bad-name', 'duplicate-name']);

function report(r: LaunchResult, io: CliIO, to: (t: string) => void): void {
  const c = io.color;
  to(
    `${paint(c, 'bold', r.conversationId)}  ${r.agent}  ${r.mode} mode  ${r.temporary ? 'temporary workspace' : 'your workspace (nothing written into it)'}`,
  );
  to(`  workspace:    ${r.workspace}`);
  if (r.contextFile) to(`  context file: ${r.contextFile}`);
  for (const l of r.links) {
    to(`  ${l.ok ? paint(c, 'green', 'linked') : paint(c, 'red', 'FAILED')}  ${l.skill}  ${paint(c, 'dim', `${l.path} -> ${l.target}`)}`);
  }
  for (const d of r.stateDirs) to(`  state  ${d.skill}  ${paint(c, 'dim', d.dir)}`);
  for (const m of r.legacy) to(`  legacy ${m.from} -> ${m.to}  ${paint(c, 'dim', `(${m.skill})`)}`);
  const env = Object.entries(r.env)
    .map(([k, v]) => `${k}=${shellLine([v])} `)
    .join('');
  to(`  command:      ${env}${shellLine(r.command) || paint(c, 'dim', '(this agent has no command: start it yourself in the workspace)')}`);
  for (const p of r.problems) {
    const fatal = FATAL.has(p.code);
    io.err(`${paint(c, fatal ? 'red' : 'yellow', fatal ? 'error' : 'warning')}  ${p.skill ?? '-'}  ${p.code}  ${p.message}`);
  }
  if (r.firstMessage) {
    to(`\n  Index mode: the agent cannot load skills from outside your project, so send this as the first message:\n`);
    to(r.firstMessage);
  }
}

async function exec(io: CliIO, conversationId: string): Promise<number> {
  const { getWorkspaces, markExited, writePid } = await import('../../workspaces/index.js');
  const ws = getWorkspaces(io.service().ctx);
  const conv = ws.conversation(conversationId);
  const run = ws.agentRun(conv);
  return new Promise((resolve) => {
    const child = spawn(run.argv[0]!, run.argv.slice(1), {
      cwd: conv.workspace,
      env: { ...io.env, ...run.env },
      stdio: 'inherit',
    });
    // Ctrl-C belongs to the agent: SkillDock stays to record the exit.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    child.once('spawn', () => {
      if (child.pid) writePid(conv, child.pid);
    });
    child.once('error', (err) => {
      process.off('SIGINT', ignore);
      io.err(`skilldock launch: cannot run ${run.argv[0]}: ${err.message}. Is the agent installed and on PATH?`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      markExited(conv);
      resolve(code ?? (signal ? 128 + 2 : 1));
    });
  });
}

export const launchCommand: CliCommandModule = {
  usage: 'skilldock launch <assistant> [--workspace DIR | --temporary] [--on-changed refuse|skip|omit] [--exec] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: 'string' },
        temporary: { type: 'boolean' },
        'on-changed': { type: 'string' },
        exec: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('expected exactly one assistant (id or name)');
    if (values.workspace !== undefined && values.temporary) throw new UsageError('give --workspace or --temporary, not both');
    const onChanged = values['on-changed'];
    if (onChanged !== undefined && !ON_CHANGED.includes(onChanged as OnChanged)) {
      throw new UsageError(`--on-changed takes ${ON_CHANGED.join(', ')} (got "${onChanged}")`);
    }
    let r: LaunchResult;
    try {
      r = await io.service().api.launchAssistant({
        assistant: positionals[0]!,
        ...(values.workspace !== undefined ? { workspace: path.resolve(io.cwd, values.workspace) } : {}),
        ...(values.temporary ? { temporary: true } : {}),
        ...(onChanged !== undefined ? { onScriptsChanged: onChanged as OnChanged } : {}),
      });
    } catch (err) {
      if (!(err instanceof (await import('../../errors.js')).SkillDockError) || err.code !== 'refused') throw err;
      // Refused for unapproved scripts: say how to go on, without guessing for the user.
      io.err(`skilldock launch: ${err.message}`);
      io.err('  To launch anyway: --on-changed omit (without those skills) or --on-changed skip (linked, their scripts denied).');
      return 1;
    }
    const failed = r.problems.some((p) => FATAL.has(p.code));
    if (values.json) printJson(io, r);
    else report(r, io, values.exec ? io.err : io.out);
    if (!values.exec) return failed ? 1 : 0;
    if (failed) io.err(paint(io.color, 'red', 'Some skills are not in this conversation (see above); starting the agent anyway.'));
    return exec(io, r.conversationId);
  },
};
