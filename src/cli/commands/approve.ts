import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatMessage, type ApprovalDiff, type Inventory, type SkillRef, type SkillTrust, type TrustFile } from '../../contract/index.js';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { isGlob } from '../../base/index.js';
import { selection } from './select-args.js';

const STATUS_TEXT: Record<SkillTrust['status'], string> = {
  'no-surface': 'nothing executable: no approval needed',
  approved: 'approved',
  changed: 'CHANGED since approval',
  unapproved: 'not approved',
};

/** A path (has a slash, or is a folder holding SKILL.md) or a catalog name. */
function refOf(arg: string, io: CliIO, project?: string): SkillRef {
  const abs = path.resolve(io.cwd, arg);
  if (arg.includes('/') || arg.includes(path.sep) || arg === '.' || fs.existsSync(path.join(abs, 'SKILL.md'))) return { dir: abs };
  return { name: arg, ...(project ? { project: path.resolve(io.cwd, project) } : {}) };
}

export function formatInventory(inv: Inventory, color: boolean): string[] {
  const lines: string[] = [];
  for (const f of inv.files)
    lines.push(
      `  file     ${f.path}  ${paint(color, 'dim', `${f.reasons.join(', ')}${f.symlink !== undefined ? ` -> ${f.symlink}` : ''}`)}`,
    );
  for (const c of inv.commands) lines.push(`  command  ${c.text}  ${paint(color, 'dim', `SKILL.md:${c.line}`)}`);
  if (inv.hooks !== null) lines.push(`  hooks    ${JSON.stringify(inv.hooks)}`);
  if (inv.allowedTools !== null)
    lines.push(`  allowed-tools  ${inv.allowedTools}${inv.grantsShell ? paint(color, 'yellow', '  (grants a shell)') : ''}`);
  return lines.length ? lines : ['  (nothing executable)'];
}

export function formatDiff(d: ApprovalDiff, color: boolean): string {
  const lines = [`${paint(color, 'bold', d.name)}  ${STATUS_TEXT[d.status]}`];
  const mark = { added: paint(color, 'green', 'A'), removed: paint(color, 'red', 'D'), modified: paint(color, 'yellow', 'M') };
  for (const f of d.files) {
    lines.push(`  ${mark[f.change]} ${f.path}${f.note ? paint(color, 'dim', `  (${f.note})`) : ''}`);
    if (f.diff && f.change === 'modified')
      lines.push(
        ...f.diff
          .trimEnd()
          .split('\n')
          .map((l) => `      ${l}`),
      );
  }
  for (const c of d.commands.added) lines.push(`  ${mark.added} command: ${c}`);
  for (const c of d.commands.removed) lines.push(`  ${mark.removed} command: ${c}`);
  if (d.hooksChanged) lines.push(`  ${mark.modified} frontmatter hooks`);
  if (d.allowedTools)
    lines.push(`  ${mark.modified} allowed-tools: ${d.allowedTools.before ?? '(none)'} -> ${d.allowedTools.after ?? '(none)'}`);
  if (lines.length === 1) lines.push('  no change since approval');
  return lines.join('\n');
}

const TRUST_FILES: ReadonlyArray<TrustFile['file']> = ['approvals.json', 'settings.json'];

/**
 * `--files`: whether approvals.json and settings.json hold what SkillDock last wrote (exit 1 when
 * one does not); `--confirm-file F`: the user takes F as it is now, and it is trusted again.
 */
async function trustFiles(io: CliIO, confirm: string | undefined, json: boolean | undefined): Promise<number> {
  const api = io.service().api;
  if (confirm !== undefined) {
    const file = TRUST_FILES.find((f) => f === confirm);
    if (!file) throw new UsageError(`--confirm-file takes ${TRUST_FILES.join(' or ')}`);
    const f = await api.confirmTrustFile({ file });
    if (json) printJson(io, f);
    else io.out(`confirmed ${file}: it is trusted again`);
    return 0;
  }
  const files = await api.listTrustFiles({});
  if (json) printJson(io, files);
  else for (const f of files) io.out(`${f.file}  ${formatMessage({ key: `security.trust-file.${f.status}` })}`);
  return files.some((f) => f.status === 'changed') ? 1 : 0;
}

/** Approve many skills (names, globs matched by the engine, or --all) in one operation. */
async function approveMany(io: CliIO, sel: { names: string[] } | { all: true }, project: string | undefined, json: boolean | undefined) {
  if ('names' in sel && sel.names.some((n) => n.includes('/') || n.includes(path.sep)))
    throw new UsageError('approve folders one at a time; many skills are named by their catalog names');
  const out = await io.service().api.approveSkills({ ...sel, ...(project ? { project: path.resolve(io.cwd, project) } : {}) });
  if (json) printJson(io, out);
  else if (!out.results.length) io.out('every skill with scripts is approved already: nothing to approve');
  else for (const t of out.results) io.out(`approved ${paint(io.color, 'bold', t.name)} at surface ${t.digest.slice(0, 12)}`);
  return 0;
}

export const approveCommand: CliCommandModule = {
  usage:
    "skilldock approve <name|dir> [--project DIR] [--json] | <name|'glob'>... | --all (one operation: one undo) | --status <name|dir> | --diff <name|dir> | --revoke <name> | --list | --files | --confirm-file <approvals.json|settings.json>",
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        project: { type: 'string' },
        list: { type: 'boolean' },
        revoke: { type: 'boolean' },
        diff: { type: 'boolean' },
        status: { type: 'boolean' },
        files: { type: 'boolean' },
        'confirm-file': { type: 'string' },
        all: { type: 'boolean' },
      },
      allowPositionals: true,
    });
    const api = io.service().api;
    const modes = ['list', 'revoke', 'diff', 'status', 'files', 'confirm-file'].filter((m) => values[m as 'list'] !== undefined);
    if (modes.length > 1) throw new UsageError(`choose one of --${modes.join(', --')}`);
    if (values.list) {
      if (positionals.length) throw new UsageError('--list takes no skill');
      const list = await api.listApprovals({});
      if (values.json) printJson(io, list);
      else if (!list.length) io.out('no approvals');
      else
        for (const a of list)
          io.out(
            `${paint(io.color, 'bold', a.name)}  ${a.digest.slice(0, 12)}  ${a.approvedBy}  ${a.approvedAt}  ${paint(io.color, 'dim', a.dir)}`,
          );
      return 0;
    }
    if (values.files !== undefined || values['confirm-file'] !== undefined) return trustFiles(io, values['confirm-file'], values.json);
    const bulk = values.all || positionals.length > 1 || (positionals.length === 1 && isGlob(positionals[0]!));
    if (bulk && modes.length)
      throw new UsageError('many skills, a glob or --all only approve; --diff, --status and --revoke take one skill');
    if (bulk) return approveMany(io, selection(positionals, values.all, 'skill'), values.project, values.json);
    if (positionals.length !== 1) throw new UsageError("give a skill name or folder, several names, a glob ('beta-*') or --all");
    const arg = positionals[0]!;
    if (values.revoke) {
      const { removed } = await api.revokeApproval({ name: arg });
      if (values.json) printJson(io, { name: arg, removed });
      else io.out(removed ? `revoked the approval of ${arg}` : `${arg} had no approval`);
      return removed ? 0 : 1;
    }
    const ref = refOf(arg, io, values.project);
    if (values.diff) {
      const d = await api.approvalDiff(ref);
      if (values.json) printJson(io, d);
      else io.out(formatDiff(d, io.color));
      return 0;
    }
    if (values.status) {
      const t = await api.getSkillTrust(ref);
      const inv = await api.getInventory(ref);
      if (values.json) {
        printJson(io, { ...t, inventory: inv });
      } else {
        io.out(
          [
            `${paint(io.color, 'bold', t.name)}  ${STATUS_TEXT[t.status]}  policy ${t.policy}  scripts ${t.scriptsAllowed ? 'allowed' : 'not allowed'}`,
            ...formatInventory(inv, io.color),
          ].join('\n'),
        );
      }
      return t.status === 'changed' || t.status === 'unapproved' ? 1 : 0;
    }
    const inv = await api.getInventory(ref);
    const scan = await api.scanPaths({ paths: [inv.dir] });
    const t = await api.approveSkill(ref);
    if (values.json) {
      printJson(io, { ...t, inventory: inv, findings: scan.summary });
      return 0;
    }
    const lines = [
      `approved ${paint(io.color, 'bold', t.name)} at surface ${t.digest.slice(0, 12)} (by ${t.approval?.approvedBy ?? '?'})`,
      ...formatInventory(inv, io.color),
    ];
    if (scan.summary.high)
      lines.push(
        paint(io.color, 'red', `warning: the security scan reports ${scan.summary.high} high finding(s); see skilldock scan ${inv.dir}`),
      );
    io.out(lines.join('\n'));
    return 0;
  },
};
