import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { formatMessage, type Assistant, type AssistantView } from '../../contract/index.js';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { shareActions } from './assistant-share.js';
import { selectNames } from '../../base/index.js';

const USAGE = `skilldock assistant <action> [options]

  list                                     every assistant (starters are read-only)
  show <assistant> [--project DIR]         details, with each skill resolved (missing ones flagged)
  create --name N --agent A [--rules TEXT | --rules-file F] [--workspace DIR] [--skill S]...
  edit <assistant> [--name N] [--agent A] [--rules TEXT | --rules-file F] [--workspace DIR | --no-workspace]
  attach <assistant> <skill|'glob'>...|--all [--root ROOT-ID] [--project DIR] [--extra-root DIR]...
  detach <assistant> <skill>...            the skills stay in the library
  duplicate <assistant> [--name N]
  delete <assistant>
  export <assistant> [--out FILE]          one JSON file: persona, agent, each skill with its source and commit
  import <file> [--name N] [--on-conflict replace|keep-both|skip] [--allow-empty]   recreate it, adding skills from their sources
                                           (not created when every skill fails, unless --allow-empty)

An assistant is named by its id or its unique name (case-insensitive). Every action takes --json.
--rules-file - reads the rules from stdin.`;

type Values = Record<string, string | boolean | string[] | undefined>;

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean' }, ...options },
  });
  return { values: values as Values, positionals };
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one ${what}, got ${positionals.length}`);
  return positionals[0];
}

function none(positionals: string[]): void {
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
}

function readRules(values: Values, io: CliIO): string | undefined {
  if (values.rules !== undefined && values['rules-file'] !== undefined) {
    throw new UsageError('give --rules or --rules-file, not both');
  }
  if (typeof values.rules === 'string') return values.rules;
  const file = values['rules-file'];
  if (typeof file !== 'string') return undefined;
  if (file === '-') return fs.readFileSync(0, 'utf8');
  const abs = path.resolve(io.cwd, file);
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read rules file ${abs}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function workspace(values: Values, io: CliIO): string | null | undefined {
  if (values.workspace !== undefined && values['no-workspace']) throw new UsageError('give --workspace or --no-workspace, not both');
  if (values['no-workspace']) return null;
  return typeof values.workspace === 'string' ? path.resolve(io.cwd, values.workspace) : undefined;
}

function maybePath(value: unknown, io: CliIO): string | undefined {
  return typeof value === 'string' ? path.resolve(io.cwd, value) : undefined;
}

function printList(list: Assistant[], io: CliIO): void {
  if (!list.length) {
    io.out('No assistants. Create one with: skilldock assistant create --name NAME --agent claude');
    return;
  }
  const width = Math.max(...list.map((a) => a.name.length));
  for (const a of list) {
    const tag = a.builtin ? paint(io.color, 'dim', ' (starter, read-only)') : '';
    const skills = `${a.skills.length} ${a.skills.length === 1 ? 'skill' : 'skills'}`;
    io.out(`${a.name.padEnd(width)}  ${a.agent.padEnd(8)}  ${skills.padEnd(9)}  ${paint(io.color, 'dim', a.id)}${tag}`);
  }
}

function printView(v: AssistantView, io: CliIO): void {
  const c = io.color;
  io.out(
    `${paint(c, 'bold', v.name)}  ${paint(c, 'dim', v.id)}${v.builtin ? paint(c, 'dim', '  (starter, read-only: duplicate to edit)') : ''}`,
  );
  io.out(`  agent:      ${v.agent}${v.agentMissing ? paint(c, 'red', '  (not in the agent registry)') : ''}`);
  io.out(`  workspace:  ${v.defaultWorkspace ?? 'new temporary workspace per launch'}`);
  io.out(`  skills:     ${v.skills.length}${v.missingCount ? paint(c, 'red', ` (${v.missingCount} missing)`) : ''}`);
  const width = Math.max(0, ...v.skills.map((s) => s.name.length));
  for (const s of v.skills) {
    let state: string;
    if (s.missing) state = paint(c, 'red', `missing (was in ${s.rootId}; detach it or bring it back)`);
    else {
      const notes = [s.entry!.provenance.rootId];
      if (s.relocated) notes.push(`moved from ${s.rootId}`);
      if (s.changed) notes.push('changed since attached');
      state = `${notes.join(', ')}  ${paint(c, 'dim', s.entry!.provenance.dir)}`;
    }
    io.out(`    ${s.name.padEnd(width)}  ${state}`);
  }
  io.out('  rules:');
  const rules = v.rules.trim();
  io.out(
    rules
      ? rules
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')
      : paint(c, 'dim', '    (none)'),
  );
}

type Action = (argv: string[], io: CliIO) => Promise<number>;

function done(io: CliIO, json: unknown, value: AssistantView, message: string): number {
  if (json) printJson(io, value);
  else io.out(message);
  return 0;
}

const actions: Record<string, Action> = {
  async list(argv, io) {
    const { values, positionals } = parse(argv, {});
    none(positionals);
    const list = await io.service().api.listAssistants({});
    if (values.json) printJson(io, list);
    else printList(list, io);
    return 0;
  },

  async show(argv, io) {
    const { values, positionals } = parse(argv, { project: { type: 'string' } });
    const view = await io.service().api.getAssistant({ assistant: one(positionals, 'assistant'), project: maybePath(values.project, io) });
    if (values.json) printJson(io, view);
    else printView(view, io);
    return 0;
  },

  async create(argv, io) {
    const { values, positionals } = parse(argv, {
      name: { type: 'string' },
      agent: { type: 'string' },
      rules: { type: 'string' },
      'rules-file': { type: 'string' },
      workspace: { type: 'string' },
      skill: { type: 'string', multiple: true },
      project: { type: 'string' },
    });
    none(positionals);
    if (typeof values.name !== 'string') throw new UsageError('--name is required');
    if (typeof values.agent !== 'string') throw new UsageError('--agent is required');
    const view = await io.service().api.createAssistant({
      name: values.name,
      agent: values.agent,
      rules: readRules(values, io) ?? '',
      defaultWorkspace: maybePath(values.workspace, io),
      skills: values.skill as string[] | undefined,
      project: maybePath(values.project, io),
    });
    return done(io, values.json, view, `Created assistant "${view.name}" (${view.id}) on ${view.agent}`);
  },

  async edit(argv, io) {
    const { values, positionals } = parse(argv, {
      name: { type: 'string' },
      agent: { type: 'string' },
      rules: { type: 'string' },
      'rules-file': { type: 'string' },
      workspace: { type: 'string' },
      'no-workspace': { type: 'boolean' },
    });
    const assistant = one(positionals, 'assistant');
    const rules = readRules(values, io);
    const defaultWorkspace = workspace(values, io);
    const name = values.name as string | undefined;
    const agent = values.agent as string | undefined;
    if (name === undefined && agent === undefined && rules === undefined && defaultWorkspace === undefined) {
      throw new UsageError('nothing to change: give --name, --agent, --rules, --rules-file, --workspace or --no-workspace');
    }
    const view = await io.service().api.updateAssistant({ assistant, name, agent, rules, defaultWorkspace });
    return done(io, values.json, view, `Updated assistant "${view.name}" (${view.id})`);
  },

  async attach(argv, io) {
    const { values, positionals } = parse(argv, {
      root: { type: 'string' },
      project: { type: 'string' },
      'extra-root': { type: 'string', multiple: true },
      all: { type: 'boolean' },
    });
    const [assistant, ...named] = positionals;
    if (!assistant) throw new UsageError('give an assistant and at least one skill name');
    if (values.all && named.length) throw new UsageError('give skill names or --all, not both');
    // the engine matches globs against the catalog's names: `*` is every skill
    const skills = values.all ? ['*'] : named;
    if (!skills.length) throw new UsageError("give an assistant and at least one skill name or glob ('beta-*'), or --all");
    const roots = (values['extra-root'] as string[] | undefined)?.map((r) => path.resolve(io.cwd, r));
    const view = await io.service().api.attachSkills({
      assistant,
      skills,
      rootId: values.root as string | undefined,
      project: maybePath(values.project, io),
      roots,
    });
    const waiting = view.waiting ?? [];
    // what each name or glob picked (a glob whose skills all wait for an approval picks none here)
    const names = view.skills.map((s) => s.name);
    const picked = new Set(
      skills.flatMap((p) => {
        try {
          return selectNames(names, { names: [p] }, 'catalog');
        } catch {
          return [];
        }
      }),
    );
    const attached = view.skills.filter((s) => picked.has(s.name) && !waiting.some((w) => w.name === s.name));
    const from = attached.map((s) => `${s.name} (${s.rootId})`);
    // The others are attached; the ones waiting for an approval are named, and the exit says not all were.
    if (values.json) printJson(io, view);
    else {
      io.out(`Attached to "${view.name}": ${from.join(', ')}`);
      for (const w of waiting) io.err(`Not attached: ${formatMessage(w.msg).replace(/\.$/, '')} (skilldock approve ${w.name}).`);
    }
    return waiting.length ? 1 : 0;
  },

  async detach(argv, io) {
    const { values, positionals } = parse(argv, {});
    const [assistant, ...skills] = positionals;
    if (!assistant || !skills.length) throw new UsageError('give an assistant and at least one skill name');
    const view = await io.service().api.detachSkills({ assistant, skills });
    return done(io, values.json, view, `Detached from "${view.name}": ${skills.join(', ')} (the skills themselves are untouched)`);
  },

  async duplicate(argv, io) {
    const { values, positionals } = parse(argv, { name: { type: 'string' } });
    const view = await io.service().api.duplicateAssistant({
      assistant: one(positionals, 'assistant'),
      name: values.name as string | undefined,
    });
    return done(io, values.json, view, `Created "${view.name}" (${view.id}), an editable copy`);
  },

  async delete(argv, io) {
    const { values, positionals } = parse(argv, {});
    const gone = await io.service().api.deleteAssistant({ assistant: one(positionals, 'assistant') });
    if (values.json) printJson(io, gone);
    else io.out(`Deleted assistant "${gone.name}" (${gone.id}); its skills are untouched`);
    return 0;
  },
  ...shareActions,
};

export const assistantCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (!action) throw new UsageError('give an action: ' + Object.keys(actions).join(', '));
    const fn = Object.prototype.hasOwnProperty.call(actions, action) ? actions[action] : undefined;
    if (!fn) throw new UsageError(`unknown action "${action}"; actions: ${Object.keys(actions).join(', ')}`);
    return fn(rest, io);
  },
};
