// The engine's domains (the folders of src/, and its top-level files) and the imports between them,
// from product code only: tests and their helpers may reach anywhere. A cycle between domains
// means neither can be understood, tested or changed alone. Exported for
// test/import-boundaries.test.ts; runnable alone: `node scripts/domain-cycles.mjs` exits 1 on a cycle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMPORT_RE, stripComments, walk } from './check-imports.mjs';

/** Test code and test data: not part of the product's dependency graph. */
const isTestFile = (rel) => /\.test\.tsx?$|(^|\/)test-[\w-]+\.ts$|(^|\/)(fixtures|__fixtures__)\//.test(rel);

/** `src/<domain>/...` → domain; `src/service.ts` → `service`. */
function domainOf(relToSrc) {
  const [first, ...rest] = relToSrc.split('/');
  return rest.length ? first : first.replace(/\.(ts|tsx|mts|js|mjs)$/, '');
}

/** Edges `from -> to` between domains, each with the files that make it. */
export function domainGraph(root) {
  const src = path.join(root, 'src');
  const edges = new Map();
  for (const file of walk(src)) {
    const rel = path.relative(src, file).split(path.sep).join('/');
    if (isTestFile(rel)) continue;
    const from = domainOf(rel);
    for (const m of stripComments(fs.readFileSync(file, 'utf8')).matchAll(IMPORT_RE)) {
      if (!m[1].startsWith('.')) continue;
      const target = path
        .relative(src, path.resolve(path.dirname(file), m[1]))
        .split(path.sep)
        .join('/');
      // Outside src/ (a `..notes` folder inside it is not): the engine's own isInside is TypeScript.
      if (target === '..' || target.startsWith('../') || path.isAbsolute(target)) continue;
      const to = domainOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const files = edges.get(from).get(to) ?? [];
      if (!files.includes(rel)) files.push(rel);
      edges.get(from).set(to, files);
    }
  }
  return edges;
}

/** Each group of domains that import one another in a circle (strongly connected, Tarjan), with the edges inside it. */
export function domainCycles(root) {
  const edges = domainGraph(root);
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const groups = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  return groups.map((group) => ({
    domains: group,
    edges: group.flatMap((a) =>
      [...(edges.get(a) ?? new Map())].filter(([b]) => group.includes(b)).map(([b, files]) => `${a} -> ${b} (${files.join(', ')})`),
    ),
  }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const cycles = domainCycles(process.cwd());
  for (const c of cycles) console.error(`import cycle between ${c.domains.join(', ')}:\n  ${c.edges.join('\n  ')}`);
  process.exit(cycles.length ? 1 : 0);
}
