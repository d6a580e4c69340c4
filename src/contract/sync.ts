import { z } from 'zod';

// Sync through a git remote the user owns (src/sync/, issue 31).

export const SyncConflictSchema = z.object({
  /** `skill:<name>`, `assistants/<id>.json`, `approvals/<name>.json`, `settings.json`. */
  unit: z.string(),
  path: z.string(),
  kind: z.enum(['text', 'delete-change', 'binary', 'field']),
  /** The merged text with conflict markers (labels mine / installed / upstream), for a text conflict. */
  text: z.string().optional(),
});
export type SyncConflict = z.infer<typeof SyncConflictSchema>;

export const SyncAppliedSchema = z.object({
  skills: z.array(z.string()),
  removed: z.array(z.string()),
  assistants: z.number(),
  approvals: z.array(z.string()),
  /** Approvals that arrived for scripts that differ on this machine: not applied. */
  notApplied: z.array(z.string()),
  refused: z.array(z.string()),
});

export const SyncResultSchema = z.object({
  status: z.enum(['up-to-date', 'pushed', 'merged', 'conflicts']),
  committed: z.string().nullable(),
  message: z.string().nullable(),
  applied: SyncAppliedSchema.nullable(),
  conflicts: z.array(SyncConflictSchema),
  /** Library entries not sent (links, files over the size limit). */
  skipped: z.array(z.string()),
});
export type SyncResult = z.infer<typeof SyncResultSchema>;

export const SyncStatusSchema = z.object({
  url: z.string().nullable(),
  head: z.string().nullable(),
  remote: z.string().nullable(),
  /** Something here changed since the last sync. */
  changed: z.boolean(),
  conflicts: z.array(SyncConflictSchema),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

export const syncMethods = {
  syncStatus: { input: z.object({}), output: SyncStatusSchema },
  syncSetup: { input: z.object({ url: z.string().min(1), adopt: z.boolean().default(false) }), output: SyncResultSchema },
  syncRun: { input: z.object({ adopt: z.boolean().default(false) }), output: SyncResultSchema },
  syncResolve: {
    input: z.object({ unit: z.string().min(1), take: z.enum(['mine', 'theirs']) }),
    output: z.object({ unit: z.string(), take: z.enum(['mine', 'theirs']) }),
  },
} as const;
