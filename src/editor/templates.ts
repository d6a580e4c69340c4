import type { SkillTemplate } from '../contract/index.js';

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

export function templateFiles(name: string, template: SkillTemplate, description?: string): TemplateFile[] {
  const desc = description?.trim() ? description.trim() : DEFAULT_DESCRIPTION;
  const head = `---\nname: ${yamlName(name)}\ndescription: ${JSON.stringify(desc)}\n---\n\n# ${title(name) || name}\n\n`;
  const steps =
    '## Steps\n\n1. Read the request and decide whether this skill applies.\n2. Do the work, step by step.\n3. Say what you did.\n';
  switch (template) {
    case 'plain':
      return [{ path: 'SKILL.md', content: `${head}## When to use\n\nWhen the user asks for it.\n\n${steps}` }];
    case 'scripts':
      return [
        {
          path: 'SKILL.md',
          content: `${head}## When to use\n\nWhen the user asks for it.\n\n${steps}\nRun \`scripts/run.sh\` to do the repeatable part.\n`,
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
          content: `${head}## When to use\n\nWhen the user asks for it.\n\n${steps}\nDetails are in [the reference](references/REFERENCE.md); read it when you need them.\n`,
        },
        {
          path: 'references/REFERENCE.md',
          content: `# ${title(name) || name} reference\n\nWrite the details the agent reads only when needed.\n`,
        },
      ];
  }
}
