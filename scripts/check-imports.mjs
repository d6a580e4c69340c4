// Scans import specifiers per layer (see docs/architecture.md). Exported for the test,
// runnable alone: `node scripts/check-imports.mjs` exits 1 on a violation. `frontDoorProblem` is
// also the ESLint rule `skilldock/front-door-imports` (eslint.config.mjs), so editors show it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const IMPORT_RE =
  /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?|\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
const DOM_RE = /\b(HTMLElement|HTMLInputElement|document\.|window\.|localStorage|sessionStorage|navigator\.)/;

export function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    if (ent.name === 'node_modules' || ent.name.startsWith('.')) continue;
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(ent.name) && !/\.d\.ts$/.test(ent.name)) out.push(full);
  }
  return out;
}

export function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const FRONT_DOORS = /^(main\/|src\/cli\/)/;

/**
 * The front doors (`main/`, `src/cli/`) reach an engine domain only through its public surface:
 * `src/<domain>/index.ts`, or `src/<domain>/lean.ts` (the part that loads without the service or zod,
 * for the CLI's quick commands), or a top-level `src/*.ts` file (service, errors, context). The
 * contract is the API itself: any file of it. Tests beside them may reach further. `file` is
 * relative to the project root with `/`; returns the problem or null.
 */
export function frontDoorProblem(file, spec) {
  if (!FRONT_DOORS.test(file) || /\.test\.tsx?$/.test(file) || !spec.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.(js|mjs|ts)$/, '');
  const parts = target.split('/');
  if (parts[0] !== 'src' || parts.length <= 2 || parts[1] === 'contract') return null;
  if (file.startsWith('src/cli/') && parts[1] === 'cli') return null;
  if (parts.length === 3 && (parts[2] === 'index' || parts[2] === 'lean')) return null;
  return `${file}: a front door imports "${spec}" past the public surface of src/${parts[1]}: import it from src/${parts[1]}/index.ts or lean.ts (export it there)`;
}

/**
 * Test code, by where it lives (root-relative, `/`): test files, test/ and e2e/, the renderer's
 * test folder, and fixture folders. Helpers shared by tests live in test/support/, outside the
 * product tree, so no import from product code can reach them and run back up the layers.
 */
export const isTestCode = (rel) =>
  /\.test\.tsx?$/.test(rel) ||
  /^(test|e2e)\//.test(rel) ||
  rel.startsWith('renderer/src/test/') ||
  /(^|\/)(fixtures|__fixtures__)\//.test(rel);

/** A helper-looking file left in the product tree (`test-helpers.ts`, `src/x/fixtures/y.ts`): it belongs in test/support/. */
const looksLikeTestHelper = (rel) => !/\.test\.tsx?$/.test(rel) && /(^|\/)(test-[\w-]+\.tsx?|fixtures\/[^/]+\.tsx?)$/.test(rel);

/** Product files (src/, main/, renderer/ but their tests) that import test code, or are test helpers themselves. */
function testSupportProblems(root, rel) {
  const problems = [];
  for (const file of ['src', 'main', 'renderer'].flatMap((d) => walk(path.join(root, d)))) {
    const r = rel(file);
    if (looksLikeTestHelper(r)) {
      problems.push(`${r}: a test helper in the product tree: move it to test/support/ (tests import it from there)`);
      continue;
    }
    if (isTestCode(r)) continue;
    for (const m of stripComments(fs.readFileSync(file, 'utf8')).matchAll(IMPORT_RE)) {
      if (!m[1].startsWith('.')) continue;
      const target = rel(path.resolve(path.dirname(file), m[1]));
      if (isTestCode(target)) problems.push(`${r}: product code imports test code "${m[1]}"`);
    }
  }
  return problems;
}

export function checkImports(root) {
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const problems = testSupportProblems(root, rel);
  for (const file of walk(path.join(root, 'src'))) {
    const r = rel(file);
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    const inContract = r.startsWith('src/contract/');
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1];
      if (inContract) {
        if (spec !== 'zod' && !spec.startsWith('./')) problems.push(`${r}: the contract may import only zod, not "${spec}"`);
        continue;
      }
      if (/^(electron|react|react-dom|@arco-design|zustand|i18next|react-i18next)(\/|$)/.test(spec)) {
        problems.push(`${r}: the engine must not import "${spec}"`);
      }
    }
    if (!r.endsWith('.test.ts')) {
      const dom = text.match(DOM_RE);
      if (dom) problems.push(`${r}: the engine must not use DOM APIs (${dom[1]})`);
    }
  }
  for (const file of [...walk(path.join(root, 'main')), ...walk(path.join(root, 'src', 'cli'))]) {
    const r = rel(file);
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    for (const m of text.matchAll(IMPORT_RE)) {
      const problem = frontDoorProblem(r, m[1]);
      if (problem) problems.push(problem);
    }
  }
  for (const file of walk(path.join(root, 'renderer'))) {
    const r = rel(file);
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1];
      if (!spec.startsWith('.')) continue;
      const target = rel(path.resolve(path.dirname(file), spec));
      if (target.startsWith('src/') && !target.startsWith('src/contract')) {
        problems.push(`${r}: the renderer may reach the engine only through src/contract, not "${spec}"`);
      }
      if (target.startsWith('main/')) problems.push(`${r}: the renderer must not import main/ ("${spec}")`);
    }
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const problems = checkImports(process.cwd());
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
