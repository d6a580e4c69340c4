import type { i18n as I18n, TFunction } from 'i18next';
import type { Diagnostic, MessageRef } from '../../../src/contract/index';
import { flattenParams } from '../../../src/contract/message-ref';

/**
 * A message from the engine in the UI's language: the key's entry in the locale files with its
 * parameters interpolated by i18next; the engine's own English text when the key is unknown to
 * this build (a newer engine behind an older window) or absent.
 */
export function engineText(t: TFunction | I18n['t'], msg: MessageRef | undefined, fallback: string): string {
  if (!msg) return fallback;
  const loose = t as unknown as (k: string, o?: Record<string, unknown>) => string;
  const word = (ref: MessageRef): string | undefined => {
    const key = `engine.${ref.key}`;
    // Nested messages and lists inside the parameters are worded in the same language first.
    const params = flattenParams(ref.params, (inner) => word(inner) ?? inner.key, loose('engine.common.list-separator'));
    const out = loose(key, { ...params, defaultValue: '' });
    return out && out !== key ? out : undefined;
  };
  return word(msg) ?? fallback;
}

/** A lint or scan finding in the UI's language (its English `message` when the key is unknown). */
export function findingText(t: TFunction | I18n['t'], d: Pick<Diagnostic, 'message' | 'msg'>): string {
  return engineText(t, d.msg, d.message);
}

/** What to change for a finding, in the UI's language; undefined when the finding has no fix. */
export function fixText(t: TFunction | I18n['t'], d: Pick<Diagnostic, 'fix' | 'fixMsg'>): string | undefined {
  return d.fix === undefined && !d.fixMsg ? undefined : engineText(t, d.fixMsg, d.fix ?? '');
}

function jsonOr(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value); // a cycle
  }
}

/** The text of anything a client call threw: its MessageRef worded, else its message. */
export function errorMessage(t: TFunction | I18n['t'], err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; msg?: MessageRef };
    // An object thrown without a message shows its fields, not "[object Object]".
    const fallback = typeof e.message === 'string' ? e.message : jsonOr(err);
    return engineText(t, e.msg, fallback);
  }
  return String(err);
}
