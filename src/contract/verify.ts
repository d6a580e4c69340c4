import { z } from 'zod';
import { MessageRefSchema } from './messages.js';

// `verifyAgent`: run the user's installed agent CLI once, offline, against a loopback recorder,
// and set the listing its model was sent beside SkillDock's prediction (src/verify/).

/** How a skill appears in a listing: described in full, shortened, by name only, or not at all. */
export const VerifyShownSchema = z.enum(['full', 'shortened', 'name-only', 'missing']);
export type VerifyShown = z.infer<typeof VerifyShownSchema>;

export const VerifyRowSchema = z.object({
  /** The identifier as listed (or predicted). */
  label: z.string(),
  /** The catalog entry SkillDock predicted this row from; null for a skill only the capture lists. */
  entryId: z.string().nullable(),
  predicted: z.object({ shown: VerifyShownSchema, description: z.string().nullable() }),
  captured: z.object({ shown: VerifyShownSchema, description: z.string().nullable() }),
  /** Prediction and capture agree (the same way of listing, the same text). */
  same: z.boolean(),
  /** Where they differ: what to do about it (the capture is what the model saw). */
  advice: MessageRefSchema.nullable(),
});
export type VerifyRow = z.infer<typeof VerifyRowSchema>;

export const VerifyInputSchema = z.object({
  agent: z.string().trim().min(1),
  /** Run the CLI in this folder; the prediction takes its project skills in too. */
  workspace: z.string().trim().min(1).optional(),
  /** Launch this assistant into a temporary workspace and check there (its agent must be `agent`). */
  assistant: z.string().trim().min(1).optional(),
  /** The CLI to run (else settings `agentCli`, else the registry's command on PATH). */
  cli: z.string().trim().min(1).optional(),
  /** How long the CLI may run before it is stopped. */
  timeoutMs: z.number().int().min(1000).max(600_000).default(120_000),
});

export const VerifyResultSchema = z.object({
  agent: z.object({ id: z.string(), name: z.string() }),
  /** The CLI that ran, and the version it reports (null when it printed none). */
  cli: z.string(),
  version: z.string().nullable(),
  /** The version SkillDock's rules were measured and this check proven on. */
  checkedOn: z.string(),
  /** Where the CLI ran (a workspace), or null for none (user skills only). */
  workspace: z.string().nullable(),
  rows: z.array(VerifyRowSchema),
  differences: z.number().int(),
  /** The CLI's own skills as listed (left out of the rows). */
  builtins: z.array(z.string()),
  /** Notes for the whole check: an untested version, an unpredictable order. */
  notes: z.array(MessageRefSchema),
});
export type VerifyResult = z.infer<typeof VerifyResultSchema>;

export const verifyMethods = {
  /** Ask the real agent CLI what it sends its model about skills (offline), beside the prediction. */
  verifyAgent: { input: VerifyInputSchema, output: VerifyResultSchema },
} as const;
