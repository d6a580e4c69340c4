import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getEditor } from './editor-service.js';

type Keys = keyof typeof import('../contract/editor.js').editorMethods;

export function editorHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const ed = () => getEditor(ctx);
  return {
    exportTargets: async (input) => ({ targets: await ed().exportTargets(input.name) }),
    listSkillFiles: (input) => ed().listFiles(input.skill),
    readSkillFile: (input) => ed().read(input.skill, input.path, input.maxBytes),
    lintSkillBuffer: (input) => ed().lintBuffer(input.skill, input.content),
    scanSkillBuffer: (input) => ed().scanBuffer(input.skill, input.path, input.content),
    saveSkillFile: (input) => ed().save(input.skill, input.path, input.content, input.expectedHash),
    renameSkillPath: (input) => ed().renamePath(input.skill, input.from, input.to),
    deleteSkillPath: (input) => ed().deletePath(input.skill, input.path),
    createSkillFolder: (input) => ed().createFolder(input.skill, input.path),
    checkSkillName: (input) => ed().checkName(input.name),
    createSkill: (input) => ed().create(input.name, input.template ?? 'plain', input.description, input.words),
  };
}
