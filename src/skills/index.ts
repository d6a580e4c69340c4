// Public surface of the skills module: safe SKILL.md parsing and per-skill lint.
export { analyzeSkill, type SkillAnalysis, type AnalyzeOptions } from './analyze.js';
export { parseSkillText, type ParsedSkill } from './parse.js';
export { makeDiagnostic, RULES, agentsMissingDepth, type Rule, type DiagnosticInit } from './rules.js';
export { walkSkill, digestSkill, type SkillFile, type WalkResult, type WalkOptions } from './walk.js';
export { codePoints, SPEC_FIELDS } from './lint-fields.js';
export { findReferences, findHomePaths, type BodyRef, type HomePath } from './body-scan.js';
