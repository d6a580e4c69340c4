// English templates of the read-only file viewer (the skill drawer's Files tab reading one file
// through readSkillFile with `maxBytes`). Placeholders are i18next's `{{name}}`.

export const VIEWER_MESSAGES = {
  'viewer.too-large': 'This file is {{kb}} KB, larger than the {{maxKb}} KB the viewer shows; it was not read.',
} as const;
