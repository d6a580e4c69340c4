import { z } from 'zod';
import { MessageRefSchema } from './messages.js';
import { ApprovalStatusSchema } from './security.js';
import { McpUnapprovedSchema } from './settings.js';

// What `skilldock mcp` serves (issue 27): the skills of a scope, each with every file it may serve
// and that file's SHA-256, and the trust verdict that withheld files or whole skills. The MCP front
// door (src/mcp/server.ts) maps this onto the Skills extension (SEP-2640); the engine reads disk.

/** What is served: the whole library (no field), one assistant's skills, or a named set. */
export const McpScopeSchema = z.object({
  assistant: z.string().min(1).optional(),
  skills: z.array(z.string().min(1)).min(1).optional(),
});
export type McpScope = z.infer<typeof McpScopeSchema>;

export const ServedFileSchema = z.object({
  /** Posix path relative to the skill folder (`SKILL.md`, `references/guide.md`). */
  path: z.string(),
  /** `sha256:<64 hex>` of the bytes as last read. */
  digest: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
});
export type ServedFile = z.infer<typeof ServedFileSchema>;

export const ServedSkillSchema = z.object({
  /** Frontmatter `name`: the last segment of the skill's URI path. */
  name: z.string(),
  /** `<name>`, or `<dir>/<name>` when two served skills share a name (SEP-2640 organisational prefix). */
  skillPath: z.string(),
  entryId: z.string(),
  description: z.string(),
  /** The SKILL.md frontmatter, verbatim (JSON-safe). */
  frontmatter: z.record(z.string(), z.unknown()),
  files: z.array(ServedFileSchema),
  trust: z.object({
    status: ApprovalStatusSchema,
    /** Files left out because the skill's scripts may not run (also links that leave the folder). */
    withheld: z.array(z.string()),
    /** English reason for the withheld scripts (null when nothing was withheld for trust). */
    reason: z.string().nullable(),
    msg: MessageRefSchema.optional(),
  }),
});
export type ServedSkill = z.infer<typeof ServedSkillSchema>;

export const ServedSetSchema = z.object({
  skills: z.array(ServedSkillSchema),
  /** Skills of the scope that are not served, and why. */
  hidden: z.array(z.object({ name: z.string(), reason: z.string(), msg: MessageRefSchema })),
  unapproved: McpUnapprovedSchema,
  /** The catalog generation the set was made from. */
  generation: z.number().int(),
});
export type ServedSet = z.infer<typeof ServedSetSchema>;

export const ServedContentSchema = z.object({
  path: z.string(),
  mimeType: z.string(),
  digest: z.string(),
  size: z.number().int(),
  /** UTF-8 text, or null for bytes that are not text (then `base64`). */
  text: z.string().nullable(),
  base64: z.string().nullable(),
});
export type ServedContent = z.infer<typeof ServedContentSchema>;

/** A running `skilldock mcp`, as it announced itself. */
export const McpServerInfoSchema = z.object({
  id: z.string(),
  pid: z.number().int(),
  transport: z.enum(['stdio', 'http']),
  /** HTTP only: the endpoint without its token. */
  url: z.string().nullable(),
  scope: McpScopeSchema,
  skills: z.number().int(),
  startedAt: z.string(),
});
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>;

export const mcpMethods = {
  /** The skills of a scope as `skilldock mcp` serves them, with per-file digests and trust. */
  mcpServedSkills: { input: McpScopeSchema, output: ServedSetSchema },
  /** One file of a served skill; refused for a file that is not served (outside, withheld, out of scope). */
  mcpReadFile: {
    input: McpScopeSchema.extend({ skillPath: z.string().min(1), path: z.string().min(1).max(4096) }),
    output: ServedContentSchema,
  },
  /** Running MCP servers of this home (pid checked), for the app's MCP page. */
  mcpStatus: { input: z.object({}), output: z.object({ servers: z.array(McpServerInfoSchema) }) },
  /** A starting server records itself; `mcpRetire` removes the record. */
  mcpAnnounce: { input: McpServerInfoSchema.omit({ id: true, startedAt: true }), output: McpServerInfoSchema },
  mcpRetire: { input: z.object({ id: z.string().min(1) }), output: z.object({ removed: z.boolean() }) },
} as const;
