import { z } from 'zod';
import { skillMethods, CatalogChangedEventSchema } from './skills.js';
import { libraryMethods, libraryEvents } from './library.js';
import { assistantsMethods, assistantsEvents } from './assistants.js';
import { launchMethods, launchEvents } from './launch.js';
import { securityMethods, securityEvents } from './security.js';
import { settingsMethods, settingsEvents } from './settings.js';
import { editorMethods } from './editor.js';
import { sourcesMethods, sourcesShareMethods, sourcesUpdateMethods } from './sources.js';
import { originMethods } from './origins.js';
import { projectMethods } from './project.js';
import { mcpMethods } from './mcp.js';
import { discoverMethods } from './discover.js';
import { deployMethods, deployEvents } from './deploy.js';
import { verifyMethods } from './verify.js';
import { syncMethods } from './sync.js';
import { usageMethods } from './usage.js';

export * from './common.js';
export * from './messages.js';
export * from './skills.js';
export * from './library.js';
export * from './assistants.js';
export * from './launch.js';
export * from './security.js';
export * from './settings.js';
export * from './editor.js';
export * from './sources.js';
export * from './origins.js';
export * from './project.js';
export * from './mcp.js';
export * from './discover.js';
export * from './deploy.js';
export * from './verify.js';
export * from './sync.js';
export * from './usage.js';
export * from './custom-agent-rules.js';
export * from './bridge.js';
export * from './language.js';

/**
 * The one API contract. Every front door (IPC, HTTP, CLI) calls these methods on the service,
 * parsing the input with `methods[name].input` first.
 */
export const methods = {
  ...skillMethods,
  ...libraryMethods,
  ...assistantsMethods,
  ...launchMethods,
  ...securityMethods,
  ...settingsMethods,
  ...editorMethods,
  ...sourcesMethods,
  ...sourcesUpdateMethods,
  ...sourcesShareMethods,
  ...originMethods,
  ...projectMethods,
  ...mcpMethods,
  ...discoverMethods,
  ...deployMethods,
  ...verifyMethods,
  ...syncMethods,
  ...usageMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export const methodNames = Object.keys(methods) as MethodName[];

export type MethodInput<K extends MethodName> = z.input<Methods[K]['input']>;
export type MethodOutput<K extends MethodName> = z.output<Methods[K]['output']>;

/** The API as the renderer and the front doors see it: one async function per method. */
export type Api = { [K in MethodName]: (input: MethodInput<K>) => Promise<MethodOutput<K>> };

/** Every event the engine pushes (IPC `skilldock:event`, HTTP event stream). */
export const EventSchema = z.union([
  CatalogChangedEventSchema,
  ...libraryEvents,
  ...assistantsEvents,
  ...launchEvents,
  ...securityEvents,
  ...settingsEvents,
  ...deployEvents,
]);
export type SkillDockEvent = z.infer<typeof EventSchema>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}
export * from './operation-what.js';
