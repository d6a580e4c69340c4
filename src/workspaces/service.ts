import fs from 'node:fs';
import path from 'node:path';
import type {
  AgentInfo,
  AssistantView,
  CleanResult,
  Conversation,
  ConversationIndex,
  LaunchInput,
  LaunchResult,
  WorkspaceInfo,
  WriteDecision,
} from '../contract/index.js';
import { agentConfigFiles, allAgents, customAgentProblem, findAgent, loadRegistry, type AgentDef } from '../agents/registry.js';
import { getAssistants } from '../assistants/service.js';
import { fail } from '../errors.js';
import { launchProblemWords, scriptWhy } from './launch-words.js';
import type { ServiceContext } from '../service-context.js';
import { getSettings } from '../settings/settings.js';
import { resolveStateUri, type StateResolution } from '../state/state-dirs.js';
import { checkWriteIn, conversationById } from './check-write.js';
import { clean, describe } from './cleanup.js';
import { ConversationLog, recordConversation } from './conversations.js';
import { launchWorkspace } from './launch.js';
import { getSecurity } from '../security/security-service.js';
import type { GuardHookGroup, ScriptVerdict } from './script-policy.js';
import { spawnTerminal, terminalArgv, writeLauncher, type AgentRun } from './terminal.js';
import { findCli } from './write-guard.js';

const DAY = 86_400_000;

export class WorkspacesService {
  readonly store;

  constructor(private readonly ctx: ServiceContext) {
    this.store = new ConversationLog(ctx.paths.home, ctx.events);
  }

  agents(): AgentDef[] {
    return allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents);
  }

  agent(id: string): AgentDef {
    const custom = getSettings(this.ctx).get().customAgents;
    const a = findAgent(this.ctx.paths.resourcesDir, id, custom);
    if (!a) {
      const unusable = custom.find((c) => c.id === id);
      const problem = unusable ? customAgentProblem(unusable, agentConfigFiles(loadRegistry(this.ctx.paths.resourcesDir).agents)) : null;
      if (problem) throw fail('bad-request', 'custom-agent.unusable', { agent: id, problem });
      throw fail('not-found', 'catalog.unknown-agent', { agent: id, known: this.agents().map((x) => x.id) });
    }
    return a;
  }

  agentInfos(env: NodeJS.ProcessEnv = process.env): AgentInfo[] {
    return this.agents().map((a) => ({
      id: a.id,
      name: a.name,
      command: a.command,
      evidence: a.evidence,
      testedVersion: a.testedVersion,
      nativeSkillsDir: a.nativeSkillsDir,
      contextFile: a.contextFile,
      projectDirs: a.projectDirs,
      userDirs: a.userDirs,
      trustEnv: a.trustEnv,
      extraDirFlag: a.extraDirFlag?.flag ?? null,
      extraDirLoadsSkills: a.extraDirFlag?.loadsSkills === true,
      installed: a.command ? onPath(a.command.trim().split(/\s+/)[0]!, env) : null,
      verifyCheckedOn: a.probe?.checkedOn ?? null,
    }));
  }

  async launch(input: LaunchInput): Promise<LaunchResult> {
    const { chosen, view } = await this.viewFor(input);
    const agent = this.agent(view.agent);
    const entries = view.skills.flatMap((s) => (s.entry ? [s.entry] : []));
    // Before anything is written: which skills may run their scripts, which stay out, or no launch.
    const security = getSecurity(this.ctx);
    const decision = security.launchDecision(entries, { onChanged: input.onScriptsChanged ?? 'refuse' });
    security.assertLaunchable(decision);
    const omitted = decision.skills.filter((s) => s.action === 'omit');
    const left = new Set(omitted.map((s) => s.name));
    const scripts = new Map<string, ScriptVerdict>(
      decision.skills.map((s) => [
        s.name,
        s.scriptsAllowed ? { allowed: true } : { allowed: false, reason: s.reason, blocked: s.blocked ?? [] },
      ]),
    );
    const bashHook = agent.writeGuard ? security.claudeBashHook(decision, agent.writeGuard.kind) : null;
    const guardHooks: GuardHookGroup[] = bashHook ? [bashHook] : [];
    const { result, conversation } = launchWorkspace({
      home: this.ctx.paths.home,
      userHome: this.ctx.paths.userHome,
      agent,
      assistant: { id: view.id, name: view.name, rules: view.rules },
      skills: view.skills
        .filter((s) => !(s.entry && left.has(s.entry.name)))
        .map((s) => ({ name: s.name, missing: s.missing, entry: s.entry })),
      ...(chosen !== undefined ? { workspace: chosen } : {}),
      cli: findCli(this.ctx.paths.resourcesDir),
      scripts,
      ...(agent.writeGuard ? { guardHooks } : {}),
    });
    // Left out at the user's choice: said once per skill, so the launch is never silently smaller.
    for (const s of omitted) {
      result.problems.push({
        skill: s.name,
        code: 'script-omitted',
        ...launchProblemWords('launch.problem.script-omitted', {
          skill: s.name,
          why: scriptWhy(s.reason ?? 'its scripts are not approved'),
        }),
      });
    }
    recordConversation(this.store, conversation);
    this.ctx.events.emit({
      type: 'conversation-launched',
      conversationId: result.conversationId,
      assistantId: view.id,
      workspace: result.workspace,
      problems: result.problems.length,
    });
    return result;
  }

  /**
   * The workspace to launch in (undefined: a fresh temporary one) and the assistant resolved
   * against it. Without an explicit workspace the view already resolves skills against the
   * assistant's default workspace, so the assistant is read once, not once for the default
   * workspace and again for the view.
   */
  private async viewFor(input: LaunchInput): Promise<{ chosen: string | undefined; view: AssistantView }> {
    const assistants = getAssistants(this.ctx);
    if (input.workspace !== undefined) {
      return { chosen: input.workspace, view: await assistants.view(input.assistant, { project: path.resolve(input.workspace) }) };
    }
    let view = await assistants.view(input.assistant, {});
    const chosen = input.temporary ? undefined : (view.defaultWorkspace ?? undefined);
    // A default workspace spelled unlike its resolved path: resolve against the normalised path.
    if (chosen && path.resolve(chosen) !== chosen) view = await assistants.view(input.assistant, { project: path.resolve(chosen) });
    return { chosen, view };
  }

  conversations(): ConversationIndex[] {
    return this.store.list();
  }

  conversation(id: string): Conversation {
    return conversationById(this.store, id);
  }

  /** argv + env that run the agent for a conversation; index mode adds the first message where the agent takes one. */
  agentRun(conv: Conversation): AgentRun & { firstMessagePassed: boolean } {
    const agent = this.agent(conv.agent);
    if (!conv.command.length) {
      throw fail('unsupported', 'launch.no-command', { agent: agent.name, path: conv.workspace });
    }
    const argv = [...conv.command];
    let firstMessagePassed = false;
    if (conv.mode === 'index' && agent.initialPrompt === 'positional') {
      const msg = this.firstMessageOf(conv);
      if (msg) {
        argv.push(msg);
        firstMessagePassed = true;
      }
    }
    return { argv, env: conv.env, firstMessagePassed };
  }

  /** Index mode keeps its first message next to the conversation's data. */
  firstMessageOf(conv: Conversation): string | null {
    try {
      return fs.readFileSync(path.join(conv.dataDir, 'first-message.md'), 'utf8');
    } catch {
      return null;
    }
  }

  async openInTerminal(id: string): Promise<{ conversationId: string; terminal: string[]; script: string }> {
    const conv = this.conversation(id);
    if (conv.removedAt) throw fail('conflict', 'launch.cleaned-up', { id, when: conv.removedAt });
    const script = writeLauncher(conv, this.agentRun(conv));
    const argv = terminalArgv(getSettings(this.ctx).get().terminalCommand, script, conv.workspace);
    await spawnTerminal(argv, conv.workspace);
    return { conversationId: id, terminal: argv, script };
  }

  list(): WorkspaceInfo[] {
    return describe(this.conversations());
  }

  clean(opts: { olderThanMs?: number; dryRun?: boolean }): CleanResult {
    const olderThanMs = opts.olderThanMs ?? getSettings(this.ctx).get().workspaceCleanupDays * DAY;
    const result = clean(this.ctx.paths.home, this.store, { olderThanMs, dryRun: opts.dryRun ?? false });
    if (!result.dryRun && result.removed.length) {
      this.ctx.events.emit({ type: 'workspaces-cleaned', removed: result.removed.map((r) => r.conversationId) });
    }
    return result;
  }

  resolveStateUri(uri: string): StateResolution {
    return resolveStateUri(this.ctx.paths.home, uri);
  }

  checkWrite(input: { path: string; conversationId?: string; cwd?: string }): WriteDecision {
    return checkWriteIn(this.ctx.paths, this.store, input);
  }
}

function onPath(cmd: string, env: NodeJS.ProcessEnv): boolean {
  if (path.isAbsolute(cmd)) return fs.existsSync(cmd);
  const exts = process.platform === 'win32' ? ['', '.cmd', '.exe', '.bat'] : [''];
  return (env.PATH ?? '').split(path.delimiter).some((d) => d && exts.some((e) => fs.existsSync(path.join(d, cmd + e))));
}

export function getWorkspaces(ctx: ServiceContext): WorkspacesService {
  return ctx.use('workspaces', () => new WorkspacesService(ctx));
}
