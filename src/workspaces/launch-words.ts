import type { LaunchProblem, MessageKey, MessageParams, MessageParam } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';

/** `message` and `msg` of a launch problem (English in src/contract/messages-launch.ts). */
export function launchProblemWords(key: MessageKey, params?: MessageParams): Pick<LaunchProblem, 'message' | 'msg'> {
  const msg = params ? { key, params } : { key };
  return { message: formatMessage(msg), msg };
}

export function launchProblem(skill: string | null, code: LaunchProblem['code'], key: MessageKey, params?: MessageParams): LaunchProblem {
  return { skill, code, ...launchProblemWords(key, params) };
}

const WHY: Record<string, MessageKey> = {
  'the script policy is "never": skill scripts do not run': 'launch.script-why.never',
  'its scripts changed since the user approved them; they must be approved again in SkillDock': 'launch.script-why.changed',
  'its scripts have not been approved by the user in SkillDock': 'launch.script-why.unapproved',
  'its scripts are not approved': 'launch.script-why.unapproved',
};

/** A script decision's reason (src/security/launch-guard.ts) as a phrase the UI can word. */
export function scriptWhy(reason: string): MessageParam {
  const key = WHY[reason];
  return key ? { key } : reason;
}
