import type { McpScope, ServedContent, ServedSet } from '../contract/index.js';
import type { McpEngine } from './engine.js';
import { fingerprint } from './skills-ext.js';

// What every MCP session of one `skilldock mcp` reads from: the served set of its scope, through
// the service (this front door never reads disk itself), and one change signal for all sessions.
// The engine's events (catalog, library, approvals, settings, assistants) mark the set stale; it
// is made again after a short quiet spell and sessions hear `list_changed` only when what is
// served really changed.

const CHANGE_EVENTS = new Set(['catalog-changed', 'library-changed', 'approval-changed', 'settings-changed', 'assistants-changed']);
/** Events come in bursts (an import: library, then catalog): one recompute per burst. */
const QUIET_MS = 80;

const prints = new WeakMap<ServedSet, string>();
function printOf(s: ServedSet): string {
  let p = prints.get(s);
  if (p === undefined) prints.set(s, (p = fingerprint(s)));
  return p;
}

export class McpSource {
  private current: Promise<ServedSet> | null = null;
  private printed: string | null = null;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private readonly off: () => void;
  private closed = false;

  constructor(
    readonly service: McpEngine,
    readonly scope: McpScope,
  ) {
    this.off = service.on((e) => {
      if (CHANGE_EVENTS.has(e.type)) this.stale();
    });
  }

  /** Make the set ahead (after the handshake: a cold start answers `initialize` first). */
  prime(): void {
    void this.compute().catch(() => undefined);
  }

  /**
   * The served set for a client (made once, then again after each change). What a client was
   * given is what a later change is compared with.
   */
  async set(): Promise<ServedSet> {
    const s = await this.compute();
    this.printed = printOf(s);
    return s;
  }

  private compute(): Promise<ServedSet> {
    if (!this.current) {
      const made = this.service.api.mcpServedSkills(this.scope);
      this.current = made;
      made.catch(() => {
        if (this.current === made) this.current = null; // try again on the next request
      });
    }
    return this.current;
  }

  read(skillPath: string, path: string): Promise<ServedContent> {
    return this.service.api.mcpReadFile({ ...this.scope, skillPath, path });
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private stale(): void {
    if (this.closed) return;
    this.current = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.recheck();
    }, QUIET_MS);
  }

  private async recheck(): Promise<void> {
    let now: string;
    try {
      now = printOf(await this.compute());
    } catch {
      return; // the next request reports the error
    }
    // Unchanged for the clients: nothing to say. Nothing listed yet: say it anyway (harmless).
    if (this.closed || now === this.printed) return;
    this.printed = now;
    for (const fn of [...this.listeners]) fn();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.off();
    this.listeners.clear();
  }
}
