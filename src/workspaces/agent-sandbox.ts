import os from 'node:os';
import type { StateDir } from '../contract/index.js';
import type { AgentDef } from '../agents/registry.js';
import { isInside } from '../base/extpath.js';
import { realpathOfExisting } from '../state/state-dirs.js';

// The agent's own sandbox for its shell (registry `sandbox`), turned on by the launch. Measured on
// the pinned CLIs by e2e/agents/sandbox.test.ts: what each keeps out of the shell's reach.

/** `dir` lies in a temporary folder (`/tmp`, the OS's or `$TMPDIR`). */
function underTemp(dir: string): boolean {
  const temps = ['/tmp', os.tmpdir(), process.env.TMPDIR].filter((t): t is string => Boolean(t));
  return temps.some((t) => isInside(dir, t) || isInside(dir, realpathOfExisting(t)));
}

/** What turns the agent's own sandbox on: settings beside the guard's hook, or arguments. */
export interface SandboxWiring {
  settings: Record<string, unknown> | null;
  args: string[];
}

/**
 * The agent's own sandbox (registry `sandbox`), so its shell cannot write SkillDock's home (approvals,
 * settings) or read a blocked skill's library folder, whatever a command spells: Claude Code's
 * `sandbox` settings (writes: the workspace and the `--add-dir` state dirs; `denyRead` hides the
 * folders; no way out of it for a command); Codex's workspace-write mode (writes: the workspace and
 * the state dirs as writable roots; it cannot hide a folder from reads).
 */
export function agentSandbox(agent: AgentDef, home: string, stateDirs: StateDir[], hidden: string[]): SandboxWiring {
  switch (agent.sandbox?.kind) {
    case 'claude-settings':
      // Claude Code has no sandbox on Windows: turned on there, it would refuse every command.
      if (process.platform === 'win32') return { settings: null, args: [] };
      return {
        settings: {
          sandbox: {
            enabled: true,
            allowUnsandboxedCommands: false,
            ...(hidden.length ? { filesystem: { denyRead: hidden } } : {}),
          },
        },
        args: [],
      };
    case 'codex-workspace-write': {
      const roots = stateDirs.map((d) => JSON.stringify(d.dir)).join(',');
      const args = ['-c', 'sandbox_mode="workspace-write"', '-c', `sandbox_workspace_write.writable_roots=[${roots}]`];
      // Codex lets the shell write /tmp and $TMPDIR too: a SkillDock home there would be in reach.
      if (underTemp(home))
        args.push('-c', 'sandbox_workspace_write.exclude_slash_tmp=true', '-c', 'sandbox_workspace_write.exclude_tmpdir_env_var=true');
      return { settings: null, args };
    }
    default:
      return { settings: null, args: [] };
  }
}
