import type { TFunction } from 'i18next';
import { RootKindSchema } from '../../../../src/contract/index';

/**
 * A root as users know it: its kind in their language, then what sets it apart
 * ("user · .claude/skills" for `user:.claude/skills`), never the bare id.
 */
export function rootName(t: TFunction, rootId: string): string {
  const colon = rootId.indexOf(':');
  const kind = colon < 0 ? rootId : rootId.slice(0, colon);
  const parsed = RootKindSchema.safeParse(kind);
  if (!parsed.success) return rootId;
  const kindName = t(`roots.${parsed.data}`);
  return colon < 0 ? kindName : `${kindName} · ${rootId.slice(colon + 1)}`;
}
