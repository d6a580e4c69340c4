import path from 'node:path';
import type { z } from 'zod';
import {
  AttachSkillsInputSchema,
  CreateAssistantInputSchema,
  DetachSkillsInputSchema,
  DuplicateAssistantInputSchema,
  UpdateAssistantInputSchema,
  type Assistant,
  type AssistantSkillRef,
  type AssistantView,
  type AttachResult,
  type AssistantsChangedEvent,
  type AttachSkillsInput,
  type CatalogEntry,
  type CatalogQuery,
  type CreateAssistantInput,
  type SkillPick,
  type UpdateAssistantInput,
} from '../contract/index.js';
import { fail, invalidInputError, type SkillDockError } from '../errors.js';
import { allAgents } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { JsonStore } from '../store/json-store.js';
import type { ServiceContext } from '../service-context.js';
import {
  ASSISTANTS_FILE_VERSION,
  AssistantsFileSchema,
  copyName,
  emptyAssistantsFile,
  loadStarters,
  starterNames,
  nameKey,
  newAssistantId,
  type AssistantsFile,
  type StoredAssistant,
} from './model.js';
import { catalogSource, pickSkills, resolveSkills, type SkillSource } from './resolve.js';
import { selectNames } from '../base/select.js';

/** A skill an attach check keeps back, and why (its approval status and the keyed reason). */
export interface AttachHold {
  entry: CatalogEntry;
  status: string;
  error: SkillDockError;
}

/**
 * Runs before skills are attached, with the catalog entries about to be attached, and names the ones
 * it holds back. The script-trust work registers one ("scripts need approval before attach"). An
 * attach goes ahead with the others (issue 23 item 10: one skill waiting for approval used to refuse
 * the whole list) and says which wait; when every skill waits, the first hold's error refuses it.
 */
export type AttachCheck = (entries: CatalogEntry[], assistant: Assistant) => AttachHold[] | Promise<AttachHold[]>;

export interface AssistantsServiceOptions {
  /** Where attached skills are looked up; the engine's catalog unless a caller supplies its own. */
  source?: SkillSource;
}

/**
 * Assistants: user ones in `<home>/assistants.json` (versioned, locked, atomic through JsonStore,
 * so the CLI and the app can edit at once), plus read-only starters from resources. Every change
 * re-reads the file under the lock and re-checks its rules there, never on a stale copy.
 */
export class AssistantsService {
  readonly store: JsonStore<AssistantsFile>;
  private readonly source: SkillSource;
  private readonly attachChecks: AttachCheck[] = [];

  constructor(
    private readonly ctx: ServiceContext,
    options: AssistantsServiceOptions = {},
  ) {
    this.source = options.source ?? catalogSource(ctx);
    this.store = new JsonStore<AssistantsFile>({
      file: path.join(ctx.paths.home, 'assistants.json'),
      schema: AssistantsFileSchema,
      version: ASSISTANTS_FILE_VERSION,
      defaults: emptyAssistantsFile,
      events: ctx.events,
    });
  }

  /** Add a check that may refuse an attach (see AttachCheck). Returns a function that removes it. */
  addAttachCheck(check: AttachCheck): () => void {
    this.attachChecks.push(check);
    return () => {
      const at = this.attachChecks.indexOf(check);
      if (at >= 0) this.attachChecks.splice(at, 1);
    };
  }

  /** The starters in the language of the settings (English until one is chosen). */
  starters(): Assistant[] {
    let language;
    try {
      language = getSettings(this.ctx).get().language ?? 'en';
    } catch {
      language = 'en' as const; // unreadable settings: the call that needs them reports it
    }
    return loadStarters(this.ctx.paths.resourcesDir, language);
  }

  /** Every starter's names in every language: a script's `--name "Code Reviewer"` finds it in any language. */
  private starterAliases(): Map<string, string[]> {
    return starterNames(this.ctx.paths.resourcesDir);
  }

  /** Starters first, then the user's assistants in creation order. */
  list(): Assistant[] {
    return [...this.starters(), ...this.store.read().assistants];
  }

  /** Find by exact id, else by unique name (case-insensitive); undefined when neither matches. */
  find(ref: string): Assistant | undefined {
    return findIn(this.list(), ref, this.starterAliases());
  }

  get(ref: string): Assistant {
    const found = this.find(ref);
    if (!found) throw unknownAssistant(ref, this.list());
    return found;
  }

  /** The assistant with each attached skill resolved against the current catalog. */
  async view(ref: string, opts: { project?: string } = {}): Promise<AssistantView> {
    return this.toView(this.get(ref), opts.project);
  }

  async create(input: CreateAssistantInput): Promise<AssistantView> {
    const args = parseInput(CreateAssistantInputSchema, input);
    this.checkAgent(args.agent);
    const now = new Date().toISOString();
    const id = newAssistantId();
    const draft: StoredAssistant = {
      id,
      name: args.name,
      agent: args.agent,
      rules: args.rules,
      skills: [],
      defaultWorkspace: args.defaultWorkspace ?? null,
      builtin: false,
      createdAt: now,
      updatedAt: now,
    };
    if (args.skills?.length) draft.skills = await this.pick(args.skills, { project: args.project }, undefined, draft);
    this.store.update((file) => {
      this.checkNameFree(file, args.name);
      file.assistants.push(draft);
    });
    this.emit('created', id);
    return this.toView(draft, args.project);
  }

  /** Rename, change agent, rules or default workspace (only the fields given). */
  async update(input: UpdateAssistantInput): Promise<AssistantView> {
    const args = parseInput(UpdateAssistantInputSchema, input);
    const target = this.editable(args.assistant);
    if (args.agent !== undefined) this.checkAgent(args.agent);
    const saved = this.mutate(target.id, (a, file) => {
      if (args.name !== undefined && nameKey(args.name) !== nameKey(a.name)) this.checkNameFree(file, args.name, a.id);
      if (args.name !== undefined) a.name = args.name;
      if (args.agent !== undefined) a.agent = args.agent;
      if (args.rules !== undefined) a.rules = args.rules;
      if (args.defaultWorkspace !== undefined) a.defaultWorkspace = args.defaultWorkspace;
    });
    this.emit('updated', saved.id);
    return this.toView(saved);
  }

  /**
   * Attach skills by name from any catalog root, recording where each came from. All or nothing:
   * one unknown name refuses the whole call. Re-attaching a name re-pins it (one skill per name,
   * as an agent's skills dir holds one folder per name).
   */
  async attach(input: AttachSkillsInput): Promise<AttachResult> {
    const args = parseInput(AttachSkillsInputSchema, input);
    const target = this.editable(args.assistant);
    const { refs, held } = await this.pickHeld(args.skills, { project: args.project, roots: args.roots }, args.rootId, target);
    if (!refs.length && held.length) throw held[0].error;
    const saved = this.mutate(target.id, (a) => {
      for (const ref of refs) {
        const at = a.skills.findIndex((s) => s.name === ref.name);
        if (at >= 0) a.skills[at] = ref;
        else a.skills.push(ref);
      }
    });
    this.emit('skills-attached', saved.id);
    const view = await this.toView(saved, args.project);
    if (!held.length) return view;
    return {
      ...view,
      waiting: held.map((h) => ({
        name: h.entry.name,
        status: h.status,
        msg: h.error.msg ?? { key: 'security.attach-ask', params: { skill: h.entry.name } },
      })),
    };
  }

  /** Remove skills from the assistant only; the skills themselves stay where they are. */
  async detach(input: { assistant: string; skills: string[] }): Promise<AssistantView> {
    const args = parseInput(DetachSkillsInputSchema, input);
    const target = this.editable(args.assistant);
    const saved = this.mutate(target.id, (a) => {
      const absent = args.skills.filter((n) => !a.skills.some((s) => s.name === n));
      if (absent.length) {
        const has = a.skills.map((s) => s.name);
        throw fail(
          'not-found',
          absent.length === 1 ? 'assistants.not-attached-one' : 'assistants.not-attached-many',
          { assistant: a.name, skills: absent, attached: has.length ? has : { key: 'assistants.none' } },
          { notAttached: absent },
        );
      }
      a.skills = a.skills.filter((s) => !args.skills.includes(s.name));
    });
    this.emit('skills-detached', saved.id);
    return this.toView(saved);
  }

  /** Copy any assistant (starters included) into a new editable one. */
  async duplicate(input: { assistant: string; name?: string }): Promise<AssistantView> {
    const args = parseInput(DuplicateAssistantInputSchema, input);
    const source = this.get(args.assistant);
    const now = new Date().toISOString();
    const id = newAssistantId();
    let copy: StoredAssistant | undefined;
    this.store.update((file) => {
      // Re-read a user source under the lock so the copy holds its latest edits.
      const fresh = source.builtin ? source : file.assistants.find((a) => a.id === source.id);
      if (!fresh) throw unknownAssistant(args.assistant, [...this.starters(), ...file.assistants]);
      const taken = (n: string) => Boolean(this.nameTaken(file, n));
      const name = args.name ?? copyName(fresh.name, taken);
      this.checkNameFree(file, name);
      copy = {
        ...structuredClone(fresh),
        id,
        name,
        builtin: false,
        createdAt: now,
        updatedAt: now,
      };
      file.assistants.push(copy);
    });
    this.emit('duplicated', id);
    return this.toView(copy!);
  }

  delete(input: { assistant: string }): { id: string; name: string } {
    const target = this.editable(input.assistant);
    let removed: StoredAssistant | undefined;
    this.store.update((file) => {
      const at = file.assistants.findIndex((a) => a.id === target.id);
      if (at < 0) throw unknownAssistant(input.assistant, file.assistants);
      [removed] = file.assistants.splice(at, 1);
    });
    this.emit('deleted', removed!.id);
    return { id: removed!.id, name: removed!.name };
  }

  // --- helpers ---------------------------------------------------------------------------------

  private editable(ref: string): Assistant {
    const a = this.get(ref);
    if (a.builtin) {
      throw fail('refused', 'assistants.builtin-readonly', { name: a.name });
    }
    return a;
  }

  /** Apply `fn` to the stored assistant `id` under the lock, stamping `updatedAt`. */
  private mutate(id: string, fn: (a: StoredAssistant, file: AssistantsFile) => void): StoredAssistant {
    let saved: StoredAssistant | undefined;
    this.store.update((file) => {
      const a = file.assistants.find((x) => x.id === id);
      if (!a) throw fail('not-found', 'assistants.deleted-meanwhile', { id });
      fn(a, file);
      a.updatedAt = new Date().toISOString();
      saved = a;
    });
    return saved!;
  }

  private nameTaken(file: AssistantsFile, name: string, exceptId?: string): Assistant | undefined {
    const key = nameKey(name);
    const aliases = this.starterAliases();
    const names = (a: Assistant) => (a.builtin ? (aliases.get(a.id) ?? [a.name]) : [a.name]);
    return [...this.starters(), ...file.assistants].find(
      (a) => a.id !== exceptId && (names(a).some((n) => nameKey(n) === key) || a.id.toLowerCase() === key),
    );
  }

  /**
   * Refuse a name that an assistant or a starter already has, before work that a create would follow
   * (an imported assistant's skills are added first; a taken name then left them added for nothing).
   * create() checks again under the lock.
   */
  requireNameFree(name: string): void {
    this.checkNameFree(this.store.read(), name);
  }

  private checkNameFree(file: AssistantsFile, name: string, exceptId?: string): void {
    const clash = this.nameTaken(file, name, exceptId);
    if (clash) {
      // A starter may clash by its name in another language: say the name the user gave.
      throw fail('conflict', clash.builtin ? 'assistants.name-taken-starter' : 'assistants.name-taken', {
        name: clash.builtin ? name.trim() : clash.name,
      });
    }
  }

  private checkAgent(agent: string): void {
    const ids = this.agentIds();
    if (!ids.includes(agent)) {
      throw fail('not-found', 'assistants.unknown-agent', { agent, known: ids });
    }
  }

  private agentIds(): string[] {
    return allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents).map((a) => a.id);
  }

  /** All or nothing (a new assistant): the first skill held back refuses the whole pick. */
  private async pick(picks: SkillPick[], query: CatalogQuery, rootId: string | undefined, target: Assistant): Promise<AssistantSkillRef[]> {
    const { refs, held } = await this.pickHeld(picks, query, rootId, target);
    if (held.length) throw held[0].error;
    return refs;
  }

  /** The picked skills the attach checks let through, and the ones they hold back. */
  private async pickHeld(
    picks: SkillPick[],
    query: CatalogQuery,
    rootId: string | undefined,
    target: Assistant,
  ): Promise<{ refs: AssistantSkillRef[]; held: AttachHold[] }> {
    const { entries } = await this.source.catalog(query);
    // A plain pick may be a glob (`beta-*`): matched here against the catalog's names (of `rootId`'s root when given)
    const names = entries.filter((e) => !rootId || e.provenance.rootId === rootId).map((e) => e.name);
    const expanded = picks.flatMap((p): SkillPick[] => (typeof p === 'string' ? selectNames(names, { names: [p] }, 'catalog') : [p]));
    const chosen = pickSkills(entries, expanded, rootId, new Date().toISOString());
    const held: AttachHold[] = [];
    for (const check of this.attachChecks) {
      const open = chosen.filter((c) => !held.some((h) => h.entry === c.entry));
      held.push(
        ...(await check(
          open.map((c) => c.entry),
          target,
        )),
      );
    }
    return { refs: chosen.filter((c) => !held.some((h) => h.entry === c.entry)).map((c) => c.ref), held };
  }

  private async toView(a: Assistant, project?: string): Promise<AssistantView> {
    const skills = await resolveSkills(this.source, a.skills, project ?? a.defaultWorkspace ?? undefined);
    return {
      ...a,
      skills,
      agentMissing: !this.agentIds().includes(a.agent),
      missingCount: skills.filter((s) => s.missing).length,
    };
  }

  private emit(action: AssistantsChangedEvent['action'], id: string): void {
    this.ctx.events.emit({ type: 'assistants-changed', action, id });
  }
}

/** Validate a call's input; a bad one is the caller's mistake, said in one readable line. */
function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalidInputError(parsed.error.issues, input);
}

function findIn(all: Assistant[], ref: string, starterAliases = new Map<string, string[]>()): Assistant | undefined {
  const wanted = ref.trim();
  const byId = all.find((a) => a.id === wanted);
  if (byId) return byId;
  const key = nameKey(wanted);
  let byName = all.filter((a) => nameKey(a.name) === key);
  // A starter by its name in another language, unless an assistant has that name now.
  if (!byName.length) byName = all.filter((a) => a.builtin && (starterAliases.get(a.id) ?? []).some((n) => nameKey(n) === key));
  if (byName.length > 1) {
    // Only a hand-edited file gets here: the service never saves two equal names.
    throw fail('conflict', 'assistants.ambiguous-name', { name: wanted, ids: byName.map((a) => a.id) });
  }
  return byName[0];
}

function unknownAssistant(ref: string, all: Assistant[]): SkillDockError {
  const names = all.map((a) => a.name);
  return names.length ? fail('not-found', 'assistants.unknown', { ref, names }) : fail('not-found', 'assistants.unknown-no-list', { ref });
}

export function getAssistants(ctx: ServiceContext): AssistantsService {
  return ctx.use('assistants', () => new AssistantsService(ctx));
}
