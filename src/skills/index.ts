// Public surface of the skills module: safe SKILL.md parsing and per-skill lint.
export { analyzeSkill, type SkillAnalysis } from './analyze.js';
export { parseSkillText } from './parse.js';
export { makeDiagnostic, RULES } from './rules.js';
export { walkSkill } from './walk.js';
export { codePoints } from './lint-fields.js';
