// What launch hands the workspace writer about skill scripts. The verdicts come from security's
// launch decision (`getSecurity(ctx).launchDecision`), asked once per launch in the service: a skill
// answered `allowed: false` is not linked: SkillDock places a folder of its own with the skill's
// instructions and without its scripts (materialize.ts), the launch reports it and the context
// file tells the agent not to run its scripts.

export interface ScriptVerdict {
  allowed: boolean;
  /** Shown to the user and written into the context file when not allowed. */
  reason?: string;
  /** Not allowed: the skill's executable surface files, left out of the folder SkillDock places for it. */
  blocked?: string[];
}

/** One PreToolUse matcher group, as the agent's settings file holds it. */
export interface GuardHookGroup {
  matcher: string;
  hooks: Array<{ type: 'command'; command: string; timeout: number }>;
}
