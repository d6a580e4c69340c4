import type { i18n as I18n } from 'i18next';

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A byte count as the user's language writes it: in English "512 B", "1.5 KB", "3.2 MB" (steps of
 * 1024, one decimal above bytes); the unit's words come from the locale files ("512 バイト" in
 * Japanese), the number from Intl in that language. Intl's own byte units read oddly ("300 byte",
 * "1.5 kB" in English), hence the locale keys.
 */
export function formatBytes(bytes: number, i18n: Pick<I18n, 't' | 'language'>): string {
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < UNITS.length - 1) {
    value /= 1024;
    i++;
  }
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: i === 0 ? 0 : 1 }).format(value);
  return i18n.t(`common.size.${UNITS[i]}`, { value: number });
}

/** A root as "library", or "user · user:claude" when its id says more than its kind. */
export function rootLabel(kindName: string, rootId: string, kind: string): string {
  return rootId === kind ? kindName : `${kindName} · ${rootId}`;
}
