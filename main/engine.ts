import path from 'node:path';
import { app } from 'electron';
import { SkillDockService } from '../src/service.js';

/**
 * The engine inside the desktop app. Packaged, the built-in skills, agent registry and starter
 * assistants sit in `process.resourcesPath` (electron-builder extraResources); from a checkout
 * they are the repo's `resources/`.
 */
export function createEngine(): SkillDockService {
  const resourcesDir = app.isPackaged ? process.resourcesPath : path.resolve(__dirname, '..', '..', 'resources');
  process.env.SKILLDOCK_RESOURCES ??= resourcesDir;
  return new SkillDockService({ paths: { resourcesDir } });
}

/** dist/main/index.cjs → dist/renderer, inside or outside the asar. */
export function rendererDir(): string {
  return path.resolve(__dirname, '..', 'renderer');
}

export function preloadPath(): string {
  return path.join(__dirname, 'preload.cjs');
}
