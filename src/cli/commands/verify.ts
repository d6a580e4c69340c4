import path from 'node:path';
import { parseArgs } from 'node:util';
import type { VerifyResult, VerifyShown } from '../../contract/index.js';
import { paint, printJson, termSafeDeep } from '../format.js';
import { formatMessage } from '../../contract/messages-text.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

const SHOWN: Record<VerifyShown, string> = { full: 'full', shortened: 'shortened', 'name-only': 'name only', missing: 'missing' };

function said(s: { shown: VerifyShown; description: string | null }): string {
  const text =
    s.description === null ? '' : `: ${s.description.replace(/\s+/g, ' ').slice(0, 100)}${s.description.length > 100 ? '…' : ''}`;
  return `${SHOWN[s.shown]}${text}`;
}

export function formatVerify(raw: VerifyResult, color: boolean): string {
  const v = termSafeDeep(raw);
  const lines = [
    `${paint(color, 'bold', v.agent.name)} ${v.version ?? '(version unknown)'} at ${v.cli}`,
    `checked with the real CLI (SkillDock's rules measured on ${v.checkedOn})${v.workspace ? `, in ${v.workspace}` : ''}`,
    '',
  ];
  for (const n of v.notes) lines.push(paint(color, 'yellow', formatMessage(n)), '');
  for (const r of v.rows) {
    const mark = r.same ? paint(color, 'green', 'same') : paint(color, 'red', 'DIFF');
    lines.push(`  ${mark}  ${paint(color, 'bold', r.label)}  ${SHOWN[r.captured.shown]}`);
    if (!r.same) {
      lines.push(`        predicted: ${said(r.predicted)}`, `        captured:  ${said(r.captured)} (what the model saw)`);
    }
    if (r.advice) lines.push(`        ${paint(color, 'dim', formatMessage(r.advice))}`);
  }
  if (v.builtins.length) lines.push('', `${v.agent.name}'s own skills: ${v.builtins.join(', ')}`);
  lines.push(
    '',
    v.differences ? paint(color, 'red', `${v.differences} difference(s): the capture is right`) : paint(color, 'green', 'no differences'),
  );
  return lines.join('\n');
}

export const verifyCommand: CliCommandModule = {
  usage: 'skilldock verify <agent> [--assistant NAME | --workspace DIR] [--cli PATH] [--timeout SECONDS] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        assistant: { type: 'string' },
        workspace: { type: 'string' },
        cli: { type: 'string' },
        timeout: { type: 'string' },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one agent id (claude, gemini, codex, opencode, qwen, copilot)');
    if (values.assistant && values.workspace) throw new UsageError('give --assistant or --workspace, not both');
    const seconds = values.timeout === undefined ? undefined : Number(values.timeout);
    if (seconds !== undefined && !(Number.isInteger(seconds) && seconds >= 1 && seconds <= 600)) {
      throw new UsageError('--timeout takes whole seconds from 1 to 600');
    }
    const result = await io.service().api.verifyAgent({
      agent: positionals[0]!,
      ...(values.workspace ? { workspace: path.resolve(io.cwd, values.workspace) } : {}),
      ...(values.assistant ? { assistant: values.assistant } : {}),
      ...(values.cli ? { cli: path.resolve(io.cwd, values.cli) } : {}),
      ...(seconds ? { timeoutMs: seconds * 1000 } : {}),
    });
    if (values.json) printJson(io, result);
    else io.out(formatVerify(result, io.color));
    return result.differences ? 1 : 0;
  },
};
