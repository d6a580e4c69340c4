import type { i18n as I18n, TFunction } from 'i18next';
import { ENGINE_MESSAGES, type MessageRef } from '../../../src/contract/index';

type Tree = { [k: string]: string | Tree };

/**
 * The engine's English message table (src/contract/messages.ts) as an i18next subtree, so the
 * `en` locale has exactly the engine's own wording under `engine.*` and the other locales are
 * checked against it by the locale test.
 */
export function engineEnglishTree(): Tree {
  const root: Tree = {};
  for (const [key, text] of Object.entries(ENGINE_MESSAGES)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'string') throw new Error(`engine message key ${key} is nested under a message`);
      node = (next as Tree | undefined) ?? (node[part] = {});
    }
    node[parts[parts.length - 1]] = text;
  }
  return root;
}

/**
 * A message from the engine in the UI's language: the key's entry in the locale files with its
 * parameters interpolated by i18next; the engine's own English text when the key is unknown to
 * this build (a newer engine behind an older window) or absent.
 */
export function engineText(t: TFunction | I18n['t'], msg: MessageRef | undefined, fallback: string): string {
  if (!msg) return fallback;
  const key = `engine.${msg.key}`;
  const loose = t as unknown as (k: string, o?: Record<string, unknown>) => string;
  const out = loose(key, { ...msg.params, defaultValue: '' });
  return out && out !== key ? out : fallback;
}

/** The text of anything a client call threw: its MessageRef worded, else its message. */
export function errorMessage(t: TFunction | I18n['t'], err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; msg?: MessageRef };
    const fallback = typeof e.message === 'string' ? e.message : String(err);
    return engineText(t, e.msg, fallback);
  }
  return String(err);
}
