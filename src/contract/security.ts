import { z } from 'zod';
import { DiagnosticSchema } from './common.js';
import { ScriptPolicySchema } from './settings.js';
import { CatalogQuerySchema } from './skills.js';
import { MessageRefSchema } from './messages.js';

// Trust for skill scripts (issue 6): the executable surface of a skill, the static security scan,
// approvals pinned to the surface digest, and what a launch may let each skill run.

/** Risk of a scan finding. Maps onto the lint severities: high = error, medium = warning, low = info. */
export const ScanLevelSchema = z.enum(['high', 'medium', 'low']);
export type ScanLevel = z.infer<typeof ScanLevelSchema>;

/** Stable scan rule codes (see src/security/README.md). */
export const ScanCodeSchema = z.enum([
  'scan-pipe-to-shell',
  'scan-credential-read',
  'scan-exfiltration',
  'scan-destructive',
  'scan-persistence',
  'scan-obfuscation',
  'scan-hidden-instructions',
  'scan-binary',
  'scan-unscanned',
]);
export type ScanCode = z.infer<typeof ScanCodeSchema>;

/** A lint-shaped diagnostic plus its risk level. */
export const ScanFindingSchema = DiagnosticSchema.extend({ level: ScanLevelSchema });
export type ScanFinding = z.infer<typeof ScanFindingSchema>;

/** Why a file is part of the executable surface. */
export const SurfaceReasonSchema = z.enum(['scripts-dir', 'executable-bit', 'shebang', 'binary', 'referenced']);
export type SurfaceReason = z.infer<typeof SurfaceReasonSchema>;

export const SurfaceFileSchema = z.object({
  /** Relative to the skill dir, `/`-separated. */
  path: z.string(),
  size: z.number().int(),
  /** sha256 of the content (of the link target text for a symlink). */
  sha256: z.string(),
  executable: z.boolean(),
  binary: z.boolean(),
  reasons: z.array(SurfaceReasonSchema),
  /** `#!/usr/bin/env python3` when the file starts with one. */
  shebang: z.string().optional(),
  /** Raw link target when the file is a symlink (its content is not read). */
  symlink: z.string().optional(),
});
export type SurfaceFile = z.infer<typeof SurfaceFileSchema>;

export const SurfaceCommandSchema = z.object({
  /** The command as the body writes it (prompt stripped, continuation lines joined). */
  text: z.string(),
  /** Line in SKILL.md. */
  line: z.number().int(),
  source: z.enum(['fenced', 'inline', 'prose']),
  /** Skill files the command runs, relative paths. */
  files: z.array(z.string()),
});
export type SurfaceCommand = z.infer<typeof SurfaceCommandSchema>;

export const InventorySchema = z.object({
  dir: z.string(),
  name: z.string().nullable(),
  files: z.array(SurfaceFileSchema),
  commands: z.array(SurfaceCommandSchema),
  /** Frontmatter `hooks`, as written (JSON-safe), or null. */
  hooks: z.unknown().nullable(),
  /** Frontmatter `allowed-tools` as a string, or null. */
  allowedTools: z.string().nullable(),
  /** `allowed-tools` grants a shell (Bash, PowerShell...). */
  grantsShell: z.boolean(),
  /** Anything here can run code: files, commands, hooks or a shell grant. */
  hasExecutableSurface: z.boolean(),
  /** sha256 over exactly the surface (files' paths and contents, commands, hooks, allowed-tools). */
  digest: z.string(),
});
export type Inventory = z.infer<typeof InventorySchema>;

export const ScanSkillReportSchema = z.object({
  name: z.string().nullable(),
  dir: z.string(),
  findings: z.array(ScanFindingSchema),
  surfaceDigest: z.string(),
  hasExecutableSurface: z.boolean(),
});
export type ScanSkillReport = z.infer<typeof ScanSkillReportSchema>;

export const ScanReportSchema = z.object({
  skills: z.array(ScanSkillReportSchema),
  summary: z.object({
    skills: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
  }),
});
export type ScanReport = z.infer<typeof ScanReportSchema>;

/**
 * What the scan found in one catalog entry, for the Skills list's badge and filter and the
 * approval prompt. `findings` holds the most severe ones first (at most RISK_FINDINGS_SHOWN), their
 * `file` relative to the skill folder (`scripts/install.sh`); the counts cover all of them.
 */
export const SkillRiskSchema = z.object({
  entryId: z.string(),
  name: z.string(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  findings: z.array(ScanFindingSchema),
});
export type SkillRisk = z.infer<typeof SkillRiskSchema>;
export const RISK_FINDINGS_SHOWN = 30;

export const SkillRisksSchema = z.object({
  /** The catalog generation the scan was made for. */
  generation: z.number().int(),
  /** Only the entries with at least one finding. */
  skills: z.array(SkillRiskSchema),
});
export type SkillRisks = z.infer<typeof SkillRisksSchema>;

/** What the approval snapshot keeps of a surface, enough to diff against later. */
export const SnapshotFileSchema = z.object({
  path: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  binary: z.boolean(),
  /** The text was kept (small text files) so a later change can be shown as a line diff. */
  kept: z.boolean(),
});
export const SurfaceSnapshotSchema = z.object({
  files: z.array(SnapshotFileSchema),
  commands: z.array(z.string()),
  hooks: z.unknown().nullable(),
  allowedTools: z.string().nullable(),
});
export type SurfaceSnapshot = z.infer<typeof SurfaceSnapshotSchema>;

export const ApprovalSchema = z.object({
  /** The skill's identifier (frontmatter name, else its dir name). */
  name: z.string(),
  /** Where it was when approved. */
  dir: z.string(),
  digest: z.string(),
  approvedAt: z.string(),
  /** OS user name of whoever approved. */
  approvedBy: z.string(),
  snapshot: SurfaceSnapshotSchema,
});
export type Approval = z.infer<typeof ApprovalSchema>;

/**
 * - `no-surface`: nothing executable, nothing to approve;
 * - `approved`: approved at the current surface digest;
 * - `changed`: approved once, the surface changed since;
 * - `unapproved`: never approved.
 */
export const ApprovalStatusSchema = z.enum(['no-surface', 'approved', 'changed', 'unapproved']);
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

export const SkillTrustSchema = z.object({
  name: z.string(),
  dir: z.string(),
  policy: ScriptPolicySchema,
  status: ApprovalStatusSchema,
  digest: z.string(),
  approvedDigest: z.string().nullable(),
  approval: ApprovalSchema.nullable(),
  /** Under the current policy, may this skill's scripts run? */
  scriptsAllowed: z.boolean(),
  /** Under the current policy, does attaching or launching it need an approval first? */
  needsApproval: z.boolean(),
});
export type SkillTrust = z.infer<typeof SkillTrustSchema>;

export const FileChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['added', 'removed', 'modified']),
  binary: z.boolean(),
  /** Unified-style line diff for text files whose both versions are known. */
  diff: z.string().optional(),
  /** Why no line diff: binary, too large, or the approved text was not kept. */
  note: z.string().optional(),
  /** `note` as a message the UI words in the user's language. */
  noteMsg: MessageRefSchema.optional(),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

export const ApprovalDiffSchema = z.object({
  name: z.string(),
  status: ApprovalStatusSchema,
  approvedDigest: z.string().nullable(),
  digest: z.string(),
  files: z.array(FileChangeSchema),
  commands: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
  hooksChanged: z.boolean(),
  allowedTools: z.object({ before: z.string().nullable(), after: z.string().nullable() }).nullable(),
});
export type ApprovalDiff = z.infer<typeof ApprovalDiffSchema>;

/** Name a skill from the catalog, or give its directory. */
export const SkillRefSchema = z
  .object({ name: z.string().min(1).optional(), dir: z.string().min(1).optional(), project: z.string().optional() })
  .refine((v) => Boolean(v.name) !== Boolean(v.dir), { message: 'give exactly one of name or dir' });
export type SkillRef = z.infer<typeof SkillRefSchema>;

/**
 * A file that decides trust (approvals.json, settings.json): `sealed`, as SkillDock last wrote it;
 * `changed`, its bytes are not what SkillDock wrote (an agent's shell, an editor, another program),
 * so nothing in it is trusted (no approval counts, no script policy looser than "ask") until the user
 * confirms it.
 */
export const TrustFileSchema = z.object({
  file: z.enum(['approvals.json', 'settings.json']),
  status: z.enum(['sealed', 'changed']),
});
export type TrustFile = z.infer<typeof TrustFileSchema>;

export const securityMethods = {
  listTrustFiles: { input: z.object({}), output: z.array(TrustFileSchema) },
  confirmTrustFile: { input: z.object({ file: TrustFileSchema.shape.file }), output: TrustFileSchema },
  scanPaths: { input: z.object({ paths: z.array(z.string()).min(1) }), output: ScanReportSchema },
  /** The scan of every entry of a catalog (cached per folder and content digest): list badges and filter. */
  listSkillRisks: { input: CatalogQuerySchema, output: SkillRisksSchema },
  getInventory: { input: SkillRefSchema, output: InventorySchema },
  getSkillTrust: { input: SkillRefSchema, output: SkillTrustSchema },
  approveSkill: { input: SkillRefSchema, output: SkillTrustSchema },
  /**
   * Approve many skills in one operation (one journal entry, one undo): catalog names or globs
   * matched against them, or `all` (every skill whose scripts are not approved as they are now).
   */
  approveSkills: {
    input: z.object({ names: z.array(z.string().min(1)).optional(), all: z.boolean().optional(), project: z.string().optional() }),
    output: z.object({ results: z.array(SkillTrustSchema), journalId: z.string().optional() }),
  },
  revokeApproval: { input: z.object({ name: z.string().min(1) }), output: z.object({ removed: z.boolean() }) },
  listApprovals: { input: z.object({}), output: z.array(ApprovalSchema) },
  approvalDiff: { input: SkillRefSchema, output: ApprovalDiffSchema },
} as const;

export const ApprovalChangedEventSchema = z.object({
  type: z.literal('approval-changed'),
  /** The skill; `*` for `reloaded`. */
  name: z.string(),
  /** `reloaded`: another process (the CLI, a hand edit) changed approvals.json; `digest` is null. */
  action: z.enum(['approved', 'revoked', 'reloaded']),
  digest: z.string().nullable(),
});
export type ApprovalChangedEvent = z.infer<typeof ApprovalChangedEventSchema>;

export const securityEvents = [ApprovalChangedEventSchema] as const;
