import fs from 'node:fs';
import path from 'node:path';
import type { MessageRef, VerifyResult } from '../contract/index.js';
import type { z } from 'zod';
import type { VerifyInputSchema } from '../contract/verify.js';
import type { ServiceContext } from '../service-context.js';
import type { AgentDef } from '../agents/registry.js';
import { fail } from '../errors.js';
import { getSettings } from '../settings/settings.js';
import { getCatalog } from '../catalog/index.js';
import { getWorkspaces } from '../workspaces/service.js';
import { cliVersion, probeListing, type ProbeFailure } from './probe.js';
import { compareListing } from './compare.js';

// `verifyAgent`: find the user's installed CLI, run it once offline against the recorder, and set
// what it sent its model beside SkillDock's prediction for the same folders.

type VerifyInput = z.input<typeof VerifyInputSchema>;

const DEFAULT_TIMEOUT_MS = 120_000;

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `cmd` on the search path (with Windows' extensions), or null. */
export function findOnPath(cmd: string, env: NodeJS.ProcessEnv): string | null {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const e of exts) if (executable(path.join(dir, cmd + e))) return path.join(dir, cmd + e);
  }
  return null;
}

/** The CLI to run: the caller's, the one set in settings, else the registry's command on PATH. */
function locateCli(ctx: ServiceContext, agent: AgentDef, given: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = given ?? getSettings(ctx).get().agentCli[agent.id];
  if (chosen) {
    const file = path.resolve(chosen);
    if (!executable(file)) throw fail('not-found', 'verify.cli-path-missing', { agent: agent.name, path: file });
    return file;
  }
  const command = agent.command?.trim().split(/\s+/)[0] ?? '';
  const found = command ? findOnPath(command, env) : null;
  if (!found) throw fail('not-found', 'verify.cli-missing', { agent: agent.name, command });
  return found;
}

function failure(agent: AgentDef, f: ProbeFailure, o: { version: string | null; timeoutMs: number; cli: string }): never {
  const base = { agent: agent.name, version: o.version ?? '?', checkedOn: agent.probe!.checkedOn };
  const tail = `${f.run.stderr}\n${f.run.stdout}`.trim().slice(-400);
  if (f.kind === 'timeout')
    throw fail('unsupported', 'verify.timeout', { ...base, seconds: Math.round(o.timeoutMs / 1000) }, { output: tail });
  if (f.kind === 'no-listing') throw fail('unsupported', 'verify.no-listing', base, { output: tail });
  if (f.login) throw fail('unsupported', 'verify.login', base, { output: tail });
  const setting = Object.keys(agent.probe!.env).find((k) => agent.probe!.env[k]!.includes('{url}')) ?? agent.probe!.files[0]?.path ?? '';
  throw fail('unsupported', 'verify.ignored-base-url', { ...base, setting, status: f.run.status ?? 'killed' }, { output: tail });
}

export async function verifyAgent(ctx: ServiceContext, input: VerifyInput, env: NodeJS.ProcessEnv = process.env): Promise<VerifyResult> {
  const agent = getWorkspaces(ctx).agent(input.agent);
  if (!agent.probe) throw fail('unsupported', 'verify.unsupported', { agent: agent.name });
  if (input.workspace && input.assistant) throw fail('bad-request', 'verify.workspace-or-assistant');
  const cli = locateCli(ctx, agent, input.cli, env);
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let workspace = input.workspace ? path.resolve(input.workspace) : null;
  if (workspace && !fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
    throw fail('not-found', 'verify.workspace-missing', { path: workspace });
  }
  if (input.assistant) {
    const launched = await getWorkspaces(ctx).launch({ assistant: input.assistant, temporary: true });
    if (launched.agent !== agent.id)
      throw fail('bad-request', 'verify.assistant-agent', { assistant: input.assistant, agent: agent.name, actual: launched.agent });
    workspace = launched.workspace;
  }
  const version = await cliVersion(agent, cli, { env, timeoutMs: Math.min(timeoutMs, 30_000) });
  // The prediction first: the catalog is read before the CLI runs, from the same folders.
  const view = await getCatalog(ctx).agentView(agent.id, workspace ? { project: workspace } : {});
  let outcome;
  try {
    outcome = await probeListing(agent, cli, { userHome: ctx.paths.userHome, timeoutMs, env, ...(workspace ? { cwd: workspace } : {}) });
  } catch (err) {
    throw fail('unsupported', 'verify.start-failed', {
      agent: agent.name,
      path: cli,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  if (!outcome.ok) failure(agent, outcome, { version, timeoutMs, cli });
  const builtins = agent.listing?.builtins.map((b) => b.name) ?? [];
  const rows = compareListing(view, outcome.captured, builtins);
  const notes: MessageRef[] = [];
  if (version !== agent.probe.checkedOn) {
    notes.push({ key: 'verify.note.version', params: { agent: agent.name, version: version ?? '?', checkedOn: agent.probe.checkedOn } });
  }
  return {
    agent: { id: agent.id, name: agent.name },
    cli,
    version,
    checkedOn: agent.probe.checkedOn,
    workspace,
    rows,
    differences: rows.filter((r) => !r.same).length,
    builtins: outcome.captured.filter((c) => builtins.includes(c.name)).map((c) => c.name),
    notes,
  };
}
