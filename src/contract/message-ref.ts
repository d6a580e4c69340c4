// A message as it travels (a key and its parameters) and how its parameters are worded, with no
// message table: the renderer's first script needs these, while the English table (messages-text.ts)
// is only loaded with the English locale.

// A parameter is a plain value, another message (a phrase worded in the same language, such as
// "a list" inside "`name` is a list, not a string") or a list of those (joined with the
// language's list separator, `common.list-separator`).
export type MessageScalar = string | number | boolean;
export type MessageParam = MessageScalar | MessageRef | Array<MessageScalar | MessageRef>;
export type MessageParams = Record<string, MessageParam>;
export interface MessageRef {
  key: string;
  params?: MessageParams;
}

/** True for a parameter that is itself a message. */
export function isMessageRef(v: unknown): v is MessageRef {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as MessageRef).key === 'string';
}

/**
 * Parameters with nested messages and lists turned into text by `word` (which words one message
 * in the caller's language) and `separator` (that language's list separator).
 */
export function flattenParams(
  params: MessageParams | undefined,
  word: (ref: MessageRef) => string,
  separator: string,
): Record<string, MessageScalar> {
  const out: Record<string, MessageScalar> = {};
  if (!params) return out;
  const one = (v: MessageScalar | MessageRef): MessageScalar => (isMessageRef(v) ? word(v) : v);
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) ? v.map(one).join(separator) : one(v);
  return out;
}

/** Fill `{{name}}` placeholders the way i18next does (no escaping: callers render as text). */
export function interpolate(template: string, params: Record<string, MessageScalar> = {}): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}
