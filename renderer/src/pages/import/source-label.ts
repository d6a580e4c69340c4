// What the user dropped or picked, not where SkillDock staged it: a dropped batch lives under
// `<home>/uploads/b-<time>-<random>/` with the dropped names kept below it, and a skill found inside
// an archive is `<archive>!/<path inside>`.

const UPLOAD_BATCH = /^.*[\\/]uploads[\\/]b-\d{13}-[0-9a-f]{16}[\\/]/;

/** The name to show for an import source. */
export function sourceLabel(source: string): string {
  const dropped = source.replace(UPLOAD_BATCH, '');
  const [outer, inner] = dropped.split('!/', 2);
  return inner ? `${outer} › ${inner}` : outer;
}
