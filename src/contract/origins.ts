import { z } from 'zod';
import { SkillOriginSchema } from './sources.js';

// Where a library skill came from, as the user knows it: the folder they picked, the archive they
// dropped (its name, never SkillDock's staging copy), or the agent folder it was adopted from, and
// when. Recorded by the library at import time in `<home>/origins.json`; a skill added from a
// published source also has its source record (src/sources, `listProvenance`).

export const ImportOriginSchema = z.object({
  /** `folder`: a skill folder; `archive`: a .zip/.skill archive; `adopted`: from an agent's user skills folder. */
  kind: z.enum(['folder', 'archive', 'adopted']),
  /**
   * The folder or archive: an absolute path when SkillDock was given one (desktop window, CLI),
   * else (dropped into the browser UI, which never sees paths) the name as dropped.
   */
  from: z.string(),
  /** The dropped name only: the browser did not say where it was on disk. */
  dropped: z.boolean(),
  /** The skill's folder inside the archive (archives only). */
  member: z.string().optional(),
  /** `link`: the library points at `from`; `copy`: the library holds its own copy. */
  mode: z.enum(['copy', 'link']),
  /** ISO time of the import. */
  time: z.string(),
  /** The journal entry of the import (an undone import's record is not shown). */
  journalId: z.string().optional(),
});
export type ImportOrigin = z.infer<typeof ImportOriginSchema>;

export const SkillOriginsSchema = z.object({
  name: z.string(),
  /** How it reached the library; null when SkillDock did not import it (made here, or before records were kept). */
  imported: ImportOriginSchema.nullable(),
  /** The published source it was added from (git URL, ref, commit), when it was. */
  source: SkillOriginSchema.nullable(),
});
export type SkillOrigins = z.infer<typeof SkillOriginsSchema>;

export const originMethods = {
  /** Where a library skill came from (by its library folder name). */
  skillOrigin: { input: z.object({ name: z.string().min(1) }), output: SkillOriginsSchema },
} as const;
