import { ENGINE_MESSAGES } from '../../../src/contract/messages-text';

type Tree = { [k: string]: string | Tree };

/**
 * The engine's English message table (src/contract/messages-text.ts) as an i18next subtree, so the
 * `en` locale has exactly the engine's own wording under `engine.*` and the other locales are
 * checked against it by the locale test. Loaded with the English locale only.
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
