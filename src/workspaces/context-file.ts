import type { LegacyMapping, StateDir } from '../contract/index.js';

// What the agent is told at the start of a conversation. Native mode writes the persona and the
// state rules into the agent's context file and lists no skills (the agent discovers them itself
// and loads each on demand). Index mode puts the same text plus a skills index in the first message.

export interface IndexedSkill {
  name: string;
  description: string;
  /** Absolute folder the agent resolves the skill's relative paths against. */
  dir: string;
}

export function renderPersona(name: string, rules: string): string {
  const body = rules.trim();
  return `# ${name}\n\n${body ? `${body}\n` : ''}`;
}

export function renderStateRules(stateDirs: StateDir[], legacy: LegacyMapping[], skillsLocation: string | null): string {
  const lines = ['## Skill state rules', ''];
  lines.push(
    `- Skill folders are read-only${skillsLocation ? ` (everything under \`${skillsLocation}\`)` : ''}: never create, edit or delete files inside a skill's folder.`,
  );
  if (stateDirs.length) {
    lines.push("- Each skill's persistent files (memory, notes, caches, settings) go to its own state dir:");
    for (const d of stateDirs) lines.push(`  - \`${d.skill}\`: \`${d.dir}\` (\`${d.uri}\`)`);
  } else {
    lines.push('- None of the skills in this conversation has a state dir.');
  }
  if (legacy.length) {
    lines.push(
      '- Home paths a SKILL.md mentions for its files are examples from its author, not places to write. Use the state dir instead:',
    );
    for (const m of legacy) lines.push(`  - \`${m.from}\` -> \`${m.to}\` (skill \`${m.skill}\`)`);
  }
  lines.push(
    '- `skill://state/<id>/<path>` names a file in a state dir; `skilldock state resolve <uri>` prints its real path.',
    '- Scratch files that need not survive the conversation go to the system temp dir.',
  );
  return `${lines.join('\n')}\n`;
}

export function renderContextFile(name: string, rules: string, stateRules: string): string {
  return `${renderPersona(name, rules)}\n${stateRules}`;
}

/** Index mode: persona, state rules and, per skill, name, description and its absolute folder. */
export function renderFirstMessage(name: string, rules: string, stateRules: string, skills: IndexedSkill[]): string {
  const index = [
    '## Skills',
    '',
    'These skills are available. Before using one, read the SKILL.md in its Skill Directory; resolve every relative path it mentions (scripts/, references/, assets/) against that directory.',
    '',
    ...skills.map((s) => `- **${s.name}**: ${oneLine(s.description)} [Skill Directory: ${s.dir}]`),
  ].join('\n');
  return `${renderContextFile(name, rules, stateRules)}\n${index}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
