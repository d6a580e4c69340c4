import path from 'node:path';

// Parsers for what each CLI prints about the skills it discovered.

export interface Listed {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md the CLI loaded. */
  location: string;
}

/** `gemini skills list --all`: `name [Enabled]` then `Description:` and `Location:` lines. */
export function parseGeminiList(out: string): Listed[] {
  const skills: Listed[] = [];
  let cur: Partial<Listed> | null = null;
  for (const line of out.split('\n')) {
    const head = /^(\S.*?) \[(?:Enabled|Disabled)\]/.exec(line);
    if (head) {
      cur = { name: head[1]! };
      skills.push(cur as Listed);
      continue;
    }
    const d = /^\s+Description:\s*(.*)$/.exec(line);
    if (d && cur) cur.description = d[1]!.trim();
    const l = /^\s+Location:\s*(.*)$/.exec(line);
    if (l && cur) cur.location = l[1]!.trim();
  }
  return skills;
}

/** `codex debug prompt-input`: the `<skills_instructions>` block, with `rN` root aliases expanded. */
export function parseCodexPrompt(out: string): Listed[] {
  const start = out.indexOf('[');
  const items = JSON.parse(out.slice(start)) as unknown;
  const texts: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.includes('<skills_instructions>')) texts.push(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(items);
  if (!texts.length) throw new Error('codex printed no <skills_instructions> block');
  const block = texts[0]!.slice(texts[0]!.indexOf('<skills_instructions>'));
  const roots = new Map<string, string>();
  for (const m of block.matchAll(/^- `(r\d+)` = `([^`]+)`$/gm)) roots.set(m[1]!, m[2]!);
  const skills: Listed[] = [];
  for (const m of block.matchAll(/^- ([^:\n]+): (.*) \(file: ([^)]+)\)$/gm)) {
    const file = m[3]!;
    const alias = /^(r\d+)\/(.*)$/.exec(file);
    const location = alias && roots.has(alias[1]!) ? path.join(roots.get(alias[1]!)!, alias[2]!) : file;
    skills.push({ name: m[1]!, description: m[2]!, location });
  }
  return skills;
}
