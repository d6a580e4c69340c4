import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import type { SkillDockEvent } from './contract/index.js';

/** Where everything lives. Every module takes these as parameters so tests use temp dirs. */
export interface EnginePaths {
  /** SkillDock's home, `~/.skilldock` unless SKILLDOCK_HOME says otherwise. */
  home: string;
  /** The user's home dir, where agents' user roots live (`~/.claude/skills`...). */
  userHome: string;
  /** The shipped `resources/` dir (built-in skills, agent registry). */
  resourcesDir: string;
}

export type EventListener = (event: SkillDockEvent) => void;

export class EventBus {
  private listeners = new Set<EventListener>();
  /**
   * Damaged data files found since this engine started (the last 20): said again to a window that
   * opens later (doctor), since the event itself went out before anyone was listening.
   */
  readonly corruptFound: Array<Extract<SkillDockEvent, { type: 'store-corrupt' }>> = [];
  on(fn: EventListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  emit(event: SkillDockEvent): void {
    if (event.type === 'store-corrupt') {
      this.corruptFound.push(event);
      if (this.corruptFound.length > 20) this.corruptFound.splice(0, this.corruptFound.length - 20);
    }
    for (const fn of [...this.listeners]) {
      try {
        fn(event);
      } catch {
        // a listener's failure must not break the engine or other listeners
      }
    }
  }
}

/** Find the shipped resources dir from the running file (source, bundle or packaged app). */
export function findResourcesDir(): string {
  if (process.env.SKILLDOCK_RESOURCES) return path.resolve(process.env.SKILLDOCK_RESOURCES);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'resources');
    if (existsSync(path.join(candidate, 'agents.json'))) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve('resources');
}

export function defaultPaths(env: NodeJS.ProcessEnv = process.env): EnginePaths {
  const userHome = env.SKILLDOCK_USER_HOME ? path.resolve(env.SKILLDOCK_USER_HOME) : os.homedir();
  return {
    home: env.SKILLDOCK_HOME ? path.resolve(env.SKILLDOCK_HOME) : path.join(userHome, '.skilldock'),
    userHome,
    resourcesDir: findResourcesDir(),
  };
}
