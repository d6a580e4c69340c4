import { z } from 'zod';
import { MessageRefSchema } from './messages.js';

// Project scope (issue 26 item 5): library skills placed in a project folder the user picked, in
// the folders the chosen agents read there, with a `skills-lock.json` in the reference `skills`
// CLI's format; and `install`, which restores a project from such a lock. Paths in a plan are
// relative to the project, `/`-separated, so what the user is shown is what will be written.

export const ProjectDeployInputSchema = z.object({
  /** The project folder (absolute, or relative to where the CLI runs). */
  project: z.string().min(1),
  /** Library skill names. */
  skills: z.array(z.string().min(1)).min(1),
  /** Agent ids from the registry (custom agents included). */
  agents: z.array(z.string().min(1)).min(1),
});
export type ProjectDeployInput = z.infer<typeof ProjectDeployInputSchema>;

export const ProjectWriteSchema = z.object({
  /** Relative to the project. */
  path: z.string(),
  /** `file`: a file of a skill's copy; `link`: a link to the copy; `dir`: a folder made on the way; `lock`: skills-lock.json. */
  kind: z.enum(['file', 'link', 'dir', 'lock']),
  skill: z.string().optional(),
  /** A link's target, as written (relative). */
  target: z.string().optional(),
  /** `update`: the file is there and is rewritten (only the lock file). */
  action: z.enum(['create', 'update']),
});
export type ProjectWrite = z.infer<typeof ProjectWriteSchema>;

export const ProjectFolderSchema = z.object({
  /** Relative to the project (`.claude/skills`). */
  folder: z.string(),
  /** Chosen agents that read it. */
  agents: z.array(z.string()),
  /** Agents not chosen that read it too, so get its skills as well. */
  alsoReadBy: z.array(z.string()),
});

export const ProjectSkillPlanSchema = z.object({
  name: z.string(),
  /** `new`: written; `present`: already there with the same content; `conflict`: something else has its name. */
  status: z.enum(['new', 'present', 'partial', 'conflict']),
  /** Where the copy is (relative); the other folders link to it. */
  copy: z.string(),
  /** Entered in skills-lock.json (it has a source a teammate can fetch). */
  locked: z.boolean(),
});

export const ProjectPlanSchema = z.object({
  project: z.string(),
  folders: z.array(ProjectFolderSchema),
  /** Agents that would read one skill from two of the chosen folders. */
  twice: z.array(z.string()),
  skills: z.array(ProjectSkillPlanSchema),
  /** Every file, link and folder that apply writes, in order. */
  writes: z.array(ProjectWriteSchema),
  lock: z.object({ path: z.string(), action: z.enum(['create', 'update', 'unchanged']), content: z.string() }),
  /** What stops apply (a name taken, a folder that is a link, a skill waiting for approval). */
  problems: z.array(MessageRefSchema),
  /** What apply does not do, said plainly (a skill without a source is not locked). */
  notes: z.array(MessageRefSchema),
  /** Of `writes` and the lock's content: apply refuses when the disk changed since the plan was shown. */
  digest: z.string(),
});
export type ProjectPlan = z.infer<typeof ProjectPlanSchema>;

export const ProjectApplyInputSchema = ProjectDeployInputSchema.extend({
  /** The digest of the plan the user saw. */
  digest: z.string().optional(),
});

export const ProjectApplyOutputSchema = z.object({
  plan: ProjectPlanSchema,
  written: z.number().int(),
  journalId: z.string().optional(),
});

export const ProjectInstallInputSchema = z.object({
  project: z.string().min(1),
  /** Place missing skills for these agents; default: the folders already holding locked skills, else `.agents/skills`. */
  agents: z.array(z.string().min(1)).optional(),
  /** Say what would be fetched and written; change nothing. */
  preview: z.boolean().optional(),
});

export const InstallSkillSchema = z.object({
  name: z.string(),
  source: z.string(),
  /** `present`: in the project with the locked hash; `library`: taken from the library (same hash); `fetched`: from its source. */
  status: z.enum(['present', 'library', 'fetched']),
  /** The library skill it was placed from. */
  library: z.string().optional(),
  commit: z.string().optional(),
});

export const ProjectInstallOutputSchema = z.object({
  project: z.string(),
  /** Which lock was read: written by SkillDock or by the reference CLI looks the same. */
  lock: z.string(),
  skills: z.array(InstallSkillSchema),
  folders: z.array(z.string()),
  writes: z.array(ProjectWriteSchema),
  applied: z.boolean(),
  journalId: z.string().optional(),
});
export type ProjectInstallOutput = z.infer<typeof ProjectInstallOutputSchema>;

export const projectMethods = {
  planProjectDeploy: { input: ProjectDeployInputSchema, output: ProjectPlanSchema },
  applyProjectDeploy: { input: ProjectApplyInputSchema, output: ProjectApplyOutputSchema },
  installProject: { input: ProjectInstallInputSchema, output: ProjectInstallOutputSchema },
} as const;
