/** A byte count as the user's language writes it: "512 B", "1.5 KB", "3.2 MB". */
export function formatBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: units[i],
    unitDisplay: 'short',
    maximumFractionDigits: i === 0 ? 0 : 1,
  }).format(value);
}

/** A root as "library", or "user · user:claude" when its id says more than its kind. */
export function rootLabel(kindName: string, rootId: string, kind: string): string {
  return rootId === kind ? kindName : `${kindName} · ${rootId}`;
}
