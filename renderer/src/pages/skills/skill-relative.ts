/**
 * Items (findings, diagnostics) with `file` written relative to the skill folder, as the user knows
 * the skill: `scripts/setup.sh`, not `/home/me/.skilldock/library/tool/scripts/setup.sh`. `dirs` are
 * the folder's names the engine may have used (the path it was given, its real path); a file outside
 * all of them keeps its full path, so a finding never points at the wrong file.
 */
export function relativeToSkill<T extends { file: string }>(items: readonly T[], dirs: ReadonlyArray<string | null | undefined>): T[] {
  const roots = dirs.filter((d): d is string => !!d).map((d) => d.replace(/[\\/]+$/, ''));
  return items.map((item) => {
    for (const root of roots) {
      const sep = item.file.charAt(root.length);
      if (item.file.startsWith(root) && (sep === '/' || sep === '\\') && item.file.length > root.length + 1) {
        return { ...item, file: item.file.slice(root.length + 1).replace(/\\/g, '/') };
      }
    }
    return item;
  });
}
