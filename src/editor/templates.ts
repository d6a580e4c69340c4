import type { SkillTemplate, TemplateWords } from '../contract/index.js';

// The files of a new skill, by template. The frontmatter values are written as YAML double-quoted
// strings (JSON is valid YAML), so any description the user typed parses as the string it is.

export interface TemplateFile {
  path: string;
  content: string;
  executable?: boolean;
}

const DEFAULT_DESCRIPTION = 'Describe what this skill does and when the agent should use it.';

function title(name: string): string {
  return name
    .split('-')
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

/** Plain when YAML reads it back as the same string, else double-quoted (`123`, `no`, `null`). */
function yamlName(name: string): string {
  const plain = /^[a-z][a-z0-9-]*$/.test(name) && !/^(y|n|yes|no|on|off|true|false|null)$/.test(name);
  return plain ? name : JSON.stringify(name);
}

/** The CLI's words (English); the window sends its own from the locale files. */
export const ENGLISH_TEMPLATE_WORDS: TemplateWords = {
  whenToUse: 'When to use',
  whenToUseBody: 'When the user asks for it.',
  steps: 'Steps',
  step1: 'Read the request and decide whether this skill applies.',
  step2: 'Do the work, step by step.',
  step3: 'Say what you did.',
  runScript: 'Run `scripts/run.sh` to do the repeatable part.',
  seeReference: 'Details are in [the reference](references/REFERENCE.md); read it when you need them.',
  referenceTitle: '{{title}} reference',
  referenceBody: 'Write the details the agent reads only when needed.',
};

export function templateFiles(name: string, template: SkillTemplate, description?: string, words = ENGLISH_TEMPLATE_WORDS): TemplateFile[] {
  const w = words;
  const desc = description?.trim() ? description.trim() : DEFAULT_DESCRIPTION;
  const heading = title(name) || name;
  const head = `---\nname: ${yamlName(name)}\ndescription: ${JSON.stringify(desc)}\n---\n\n# ${heading}\n\n## ${w.whenToUse}\n\n${w.whenToUseBody}\n\n`;
  const steps = `## ${w.steps}\n\n1. ${w.step1}\n2. ${w.step2}\n3. ${w.step3}\n`;
  switch (template) {
    case 'plain':
      return [{ path: 'SKILL.md', content: `${head}${steps}` }];
    case 'scripts':
      return [
        {
          path: 'SKILL.md',
          content: `${head}${steps}\n${w.runScript}\n`,
        },
        {
          path: 'scripts/run.sh',
          content: '#!/usr/bin/env bash\nset -euo pipefail\n\necho "Replace this with the work of the skill."\n',
          executable: true,
        },
      ];
    case 'references':
      return [
        {
          path: 'SKILL.md',
          content: `${head}${steps}\n${w.seeReference}\n`,
        },
        {
          path: 'references/REFERENCE.md',
          content: `# ${w.referenceTitle.replace('{{title}}', heading)}\n\n${w.referenceBody}\n`,
        },
      ];
  }
}
