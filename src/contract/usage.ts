import { z } from 'zod';

// The usage ledger (issue 30): which skills each agent really loaded, from the hook SkillDock
// installs in the conversations it launches and, when the user opts in, from the agents' own
// session logs. Everything stays in SkillDock's home.

export const UsageCountsSchema = z.object({ d7: z.number().int(), d30: z.number().int(), d90: z.number().int(), days: z.number().int() });

export const UsageRowSchema = z.object({
  skill: z.string(),
  agent: z.string(),
  /** ISO time of the last use, null when none is remembered. */
  lastUsed: z.string().nullable(),
  counts: UsageCountsSchema,
});
export type UsageRow = z.infer<typeof UsageRowSchema>;

export const UsageLogStateSchema = z.object({
  /** `unknown`: the agent's log format is not one this build knows: its usage is unknown, not zero. */
  format: z.enum(['ok', 'unknown', 'none']),
  files: z.number().int(),
  lines: z.number().int(),
  bad: z.number().int(),
  tooLong: z.number().int(),
  bytesRead: z.number(),
  scannedAt: z.string(),
});
export type UsageLogState = z.infer<typeof UsageLogStateSchema>;

export const UsageSummarySchema = z.object({
  rows: z.array(UsageRowSchema),
  /** The window of `counts.days`. */
  days: z.number().int(),
  /** Whether the agents' own logs are read (Settings). */
  readLogs: z.boolean(),
  /** Per agent whose logs can be read: what the last scan found (null: never scanned). */
  logs: z.record(z.string(), UsageLogStateSchema.nullable()),
  /** Agents whose usage is unknown (a log format that changed). */
  unknown: z.array(z.string()),
});
export type UsageSummary = z.infer<typeof UsageSummarySchema>;

export const usageMethods = {
  /** Per skill and agent: last use and counts over 7, 30, 90 and `days` days. */
  usageSummary: {
    input: z.object({ agent: z.string().min(1).max(64).optional(), days: z.number().int().min(1).max(400).optional() }),
    output: UsageSummarySchema,
  },
  /** Read the new bytes of the agents' session logs; refused (`usage.logs-off`) unless the user opted in. */
  usageScan: { input: z.object({}), output: UsageSummarySchema },
  /** Forget every recorded use (Settings). */
  usageClear: { input: z.object({}), output: z.object({ cleared: z.boolean() }) },
} as const;
