import path from 'node:path';
import { app } from 'electron';
import { SkillDockService } from '../src/service.js';
import { APP_EXECUTABLE_ENV } from '../src/workspaces/index.js';

/**
 * The engine inside the desktop app. Packaged, the built-in skills, agent registry and starter
 * assistants sit in `process.resourcesPath` (electron-builder extraResources); from a checkout
 * they are the repo's `resources/`.
 */
export function createEngine(): SkillDockService {
  return new SkillDockService({ paths: { resourcesDir: setResourcesEnv() } });
}

/**
 * Where the resources are, told to the engine through the env (the CLI mode reads it too); and,
 * packaged, the app's own executable as the CLI the write guard's hook calls.
 */
export function setResourcesEnv(): string {
  const resourcesDir = app.isPackaged ? process.resourcesPath : path.resolve(__dirname, '..', '..', 'resources');
  process.env.SKILLDOCK_RESOURCES ??= resourcesDir;
  if (app.isPackaged) process.env[APP_EXECUTABLE_ENV] ??= process.execPath;
  return process.env.SKILLDOCK_RESOURCES;
}

/** dist/main/index.cjs → dist/renderer, inside or outside the asar. */
export function rendererDir(): string {
  return path.resolve(__dirname, '..', 'renderer');
}

export function preloadPath(): string {
  return path.join(__dirname, 'preload.cjs');
}
