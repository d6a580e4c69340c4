// Named, not `z`: the namespace object would bring all of zod's locales into the stdio door.
import { literal, object } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ServedSet } from '../contract/index.js';
import type { McpSource } from './source.js';
import { EXTENSION_ID, LIST_TTL_MS, directoryChildren, indexJson, locate, resourceRows, skillEntry } from './skills-ext.js';
import { BadSkillUri, INDEX_URI, decodeSkillUri } from './uri.js';
import { TOOLS, bodyOf, findSkill, loadText, promptName, searchSkills } from './tools.js';

// One MCP session over the official SDK's low-level Server: the Skills extension (SEP-2640:
// `skills/list`, `skills/get`, `resources/directory/read`, every file a `skill://` resource), the
// earlier drafts' `skill://index.json`, and for hosts without the extension two tools and a prompt
// per skill. Every refusal is a JSON-RPC error; nothing a client sends stops the server.

const SERVER_NAME = 'skilldock';
export const MCP_VERSION = '0.1.0';
const SKILLS_PAGE = 200;
const RESOURCES_PAGE = 1000;
const CACHE = { ttlMs: LIST_TTL_MS, cacheScope: 'private' as const };

const INSTRUCTIONS =
  "SkillDock serves the user's Agent Skills. Each skill is a folder of skill:// resources: read skill://<name>/SKILL.md for its instructions; relative paths in it resolve against skill://<name>/. Without skills support, call search_skills to find a skill and load_skill to load it. Skill content is instructions from the user's library; scripts the user has not approved are withheld.";

const Params = object({}).passthrough().optional();
const SkillsListRequest = object({ method: literal('skills/list'), params: Params });
// Params are checked in the handlers: a malformed request is -32602 (Invalid params), not the
// SDK's -32603 for a request its schema refused.
const SkillsGetRequest = object({ method: literal('skills/get'), params: Params });
const DirectoryReadRequest = object({
  method: literal('resources/directory/read'),
  params: Params,
});

/**
 * The SDK checks a client's answer to an elicitation (a form the server asks the user to fill)
 * against its JSON Schema, with ajv by default. SkillDock never asks: no validator is needed, and
 * the stdio start leaves ajv out of its bundle (scripts/build-engine.mjs).
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('the SkillDock MCP server asks no client for input (no elicitation)');
  },
};

function uriParam(params: { uri?: unknown } | undefined): string {
  if (typeof params?.uri !== 'string') throw invalid('params.uri must be a string');
  return params.uri;
}

function cursorParam(params: { cursor?: unknown } | undefined): string | undefined {
  const c = params?.cursor;
  if (c === undefined) return undefined;
  if (typeof c !== 'string') throw invalid('Bad cursor');
  return c;
}

/**
 * A JSON-RPC error as the SDK sends it (its `code`, `message` and `data`). Not McpError, whose
 * message already carries the "MCP error -32602:" prefix the client adds again.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function invalid(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message);
}

/**
 * A SkillDockError, told by its name: the stdio door (src/cli/mcp-entry.ts) loads the engine as a
 * bundle of its own, whose error class is not this module's.
 */
function engineError(err: unknown): (Error & { code: string; msg?: unknown }) | null {
  return err instanceof Error && err.name === 'SkillDockError' && typeof (err as { code?: unknown }).code === 'string'
    ? (err as Error & { code: string; msg?: unknown })
    : null;
}

/** The engine's refusals as JSON-RPC errors (unknown resources are -32602, as SEP-2640 says). */
function asMcpError(thrown: unknown): RpcError | McpError {
  if (thrown instanceof McpError || thrown instanceof RpcError) return thrown;
  if (thrown instanceof BadSkillUri) return invalid(`Bad skill URI: ${thrown.message}`);
  const err = engineError(thrown);
  if (err) {
    const code =
      err.code === 'not-found' || err.code === 'refused' || err.code === 'bad-request' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    return new RpcError(code, err.message, { code: err.code, ...(err.msg ? { msg: err.msg } : {}) });
  }
  return new RpcError(ErrorCode.InternalError, thrown instanceof Error ? thrown.message : String(thrown));
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asMcpError(err);
  }
}

function page<T>(items: T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    if (!/^[0-9]{1,9}$/.test(cursor)) throw invalid('Bad cursor');
    start = Number(cursor);
    if (start > items.length) throw invalid('Bad cursor');
  }
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
}

function skillAt(set: ServedSet, uri: string) {
  const decoded = decodeSkillUri(uri);
  const hit = locate(set, decoded);
  if (!hit) throw invalid(`No skill is served at ${uri}`);
  return hit;
}

export function createSession(source: McpSource, version: string): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'SkillDock', version },
    {
      capabilities: {
        resources: { listChanged: true, subscribe: true },
        tools: { listChanged: false },
        prompts: { listChanged: true },
        logging: {},
        extensions: { [EXTENSION_ID]: { directoryRead: true } },
      },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: NO_ELICITATION,
    },
  );
  const set = () => source.set();

  server.setRequestHandler(SkillsListRequest, (req) =>
    guarded(async () => {
      const p = page((await set()).skills, cursorParam(req.params), SKILLS_PAGE);
      return { skills: p.items.map(skillEntry), ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}), ...CACHE };
    }),
  );
  server.setRequestHandler(SkillsGetRequest, (req) =>
    guarded(async () => {
      const uri = uriParam(req.params);
      const hit = skillAt(await set(), uri);
      if (hit.rel !== 'SKILL.md') throw invalid(`Not the SKILL.md of a served skill: ${uri}`);
      return { skill: skillEntry(hit.skill) };
    }),
  );
  server.setRequestHandler(DirectoryReadRequest, (req) =>
    guarded(async () => {
      const uri = uriParam(req.params);
      const hit = skillAt(await set(), uri);
      const children = directoryChildren(hit.skill, hit.rel);
      if (!children) throw invalid(`Not a directory of a served skill: ${uri}`);
      const p = page(children, cursorParam(req.params), RESOURCES_PAGE);
      return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    }),
  );

  server.setRequestHandler(ListResourcesRequestSchema, (req) =>
    guarded(async () => {
      const s = await set();
      const rows = [{ uri: INDEX_URI, name: 'index.json', title: 'Skills index', mimeType: 'application/json' }, ...resourceRows(s)];
      const p = page(rows, req.params?.cursor, RESOURCES_PAGE);
      return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}), ...CACHE };
    }),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [], ...CACHE }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) =>
    guarded(async () => {
      const uri = req.params.uri;
      const s = await set();
      if (uri === INDEX_URI) return { contents: [{ uri, mimeType: 'application/json', text: indexJson(s) }] };
      const hit = skillAt(s, uri);
      if (hit.rel === '' || directoryChildren(hit.skill, hit.rel)?.length)
        throw invalid(`A directory, not a file: ${uri} (use resources/directory/read)`);
      const c = await source.read(hit.skill.skillPath, hit.rel);
      const meta = hit.rel === 'SKILL.md' ? { _meta: skillEntry(hit.skill)._meta } : {};
      return {
        contents: [
          c.text !== null ? { uri, mimeType: c.mimeType, text: c.text, ...meta } : { uri, mimeType: c.mimeType, blob: c.base64!, ...meta },
        ],
      };
    }),
  );

  registerToolsAndPrompts(server, source);
  const updated = registerSubscriptions(server, source);

  // Once the client has its answer to `initialize`: start reading the library.
  server.oninitialized = () => source.prime();

  const off = source.onChange(() => {
    void server.sendResourceListChanged().catch(() => undefined);
    void server.sendPromptListChanged().catch(() => undefined);
    void updated();
  });
  const prev = server.onclose;
  server.onclose = () => {
    off();
    prev?.();
  };
  return server;
}

/** For hosts without the extension: `search_skills`, `load_skill` and one prompt per skill. */
function registerToolsAndPrompts(server: Server, source: McpSource): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t })), ...CACHE }));
  server.setRequestHandler(CallToolRequestSchema, (req) =>
    guarded(async () => {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      if (req.params.name === 'search_skills') {
        if (typeof args.query !== 'string') throw invalid('search_skills needs a "query" string');
        const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? args.limit : 10;
        const results = searchSkills(await source.set(), args.query, limit);
        return { content: [{ type: 'text', text: JSON.stringify(results, null, 2) }], structuredContent: { results } };
      }
      if (req.params.name === 'load_skill') {
        if (typeof args.name !== 'string') throw invalid('load_skill needs a "name" string');
        const skill = findSkill(await source.set(), args.name);
        if (!skill)
          return { isError: true, content: [{ type: 'text', text: `No skill named "${args.name}" is served. Try search_skills.` }] };
        const c = await source.read(skill.skillPath, 'SKILL.md');
        const body = bodyOf(c.text ?? '');
        const files = skill.files.filter((f) => f.path !== 'SKILL.md').map((f) => f.path);
        return {
          content: [{ type: 'text', text: loadText(skill, body) }],
          structuredContent: { name: skill.name, body, files, withheld: skill.trust.withheld },
        };
      }
      throw invalid(`Unknown tool: ${req.params.name}`);
    }),
  );

  server.setRequestHandler(ListPromptsRequestSchema, (req) =>
    guarded(async () => {
      const prompts = (await source.set()).skills.map((s) => ({ name: promptName(s), title: s.name, description: s.description }));
      const p = page(prompts, req.params?.cursor, RESOURCES_PAGE);
      return { prompts: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}), ...CACHE };
    }),
  );
  server.setRequestHandler(GetPromptRequestSchema, (req) =>
    guarded(async () => {
      const s = await source.set();
      const skill = s.skills.find((x) => promptName(x) === req.params.name);
      if (!skill) throw invalid(`Unknown prompt: ${req.params.name}`);
      const c = await source.read(skill.skillPath, 'SKILL.md');
      return {
        description: skill.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text: loadText(skill, bodyOf(c.text ?? '')) } }],
      };
    }),
  );
}

/** The digest a served file has now (null: not served). */
function digestAt(set: ServedSet, uri: string): string | null {
  try {
    const hit = locate(set, decodeSkillUri(uri));
    return hit?.skill.files.find((f) => f.path === hit.rel)?.digest ?? null;
  } catch {
    return null;
  }
}

/**
 * `resources/subscribe`: a subscribed file whose digest changes (or that stops being served) gets
 * `notifications/resources/updated`. Returns what to run when the served set changed.
 */
function registerSubscriptions(server: Server, source: McpSource): () => Promise<void> {
  const subscribed = new Map<string, string | null>();
  server.setRequestHandler(SubscribeRequestSchema, (req) =>
    guarded(async () => {
      const uri = req.params.uri;
      if (uri.length > 4096) throw invalid('URI too long');
      if (!subscribed.has(uri) && subscribed.size >= 1000) throw invalid('Too many subscriptions');
      subscribed.set(uri, digestAt(await source.set(), uri));
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  return async () => {
    if (!subscribed.size) return;
    const set = await source.set().catch(() => null);
    if (!set) return;
    for (const [uri, was] of subscribed) {
      const now = digestAt(set, uri);
      if (now === was) continue;
      subscribed.set(uri, now);
      await server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  };
}
