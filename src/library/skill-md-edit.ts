// Minimal text edit of SKILL.md's `name:` line, keeping everything else byte for byte (BOM, line
// endings, quoting style, a trailing comment).

/** The new text, or null when no plain top-level `name:` line was found in the frontmatter. */
export function setFrontmatterName(text: string, newName: string): string | null {
  const lines = text.split(/(?<=\n)/);
  let i = 0;
  const strip = (l: string) => l.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
  while (i < lines.length && strip(lines[i]).trim() === '') i++;
  if (i >= lines.length || strip(lines[i]).trimEnd() !== '---') return null;
  for (let j = i + 1; j < lines.length; j++) {
    const line = lines[j];
    const body = line.replace(/\r?\n$/, '');
    const eol = line.slice(body.length);
    if (body.trimEnd() === '---' || body.trimEnd() === '...') return null;
    const m = /^(name[ \t]*:[ \t]*)(.*?)([ \t]+#.*)?$/.exec(body);
    if (!m) continue;
    const [, key, value, comment = ''] = m;
    let next: string;
    if (value.startsWith('"')) next = JSON.stringify(newName);
    else if (value.startsWith("'")) next = `'${newName.replace(/'/g, "''")}'`;
    else if (value === '' || value.startsWith('|') || value.startsWith('>') || value.startsWith('&') || value.startsWith('*')) return null;
    else next = newName;
    lines[j] = `${key}${next}${comment}${eol}`;
    return lines.join('');
  }
  return null;
}
