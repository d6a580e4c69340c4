import ts from 'typescript';

// Finds the sleeps a test may hide from test/support/wait.ts's rule: a wait rolled by hand rather
// than a wait for a condition. Read from the syntax tree, so code inside a string (the text of a
// fixture test file written to disk) is not code here, and any spelling of the same thing is.

/** The kinds found, each with the line it is on. */
export interface Sleep {
  line: number;
  kind: string;
}

const TIMER_NAMES = new Set(['setTimeout', 'setInterval']);
/** Names a test's own wait helper goes by: test/support/wait.ts has the one of each. */
const HELPER_NAMES = new Set(['until', 'waitFor', 'waitUntil', 'poll', 'eventually', 'sleep', 'settle', 'wait', 'delay', 'pause']);

function calleeName(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** The executor's resolve parameter of `new Promise((resolve) => …)`, if `fn` is one. */
function resolveParam(fn: ts.Node): string | undefined {
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return undefined;
  const p = fn.parent;
  if (!p || !ts.isNewExpression(p) || calleeName(p.expression) !== 'Promise') return undefined;
  const first = fn.parameters[0];
  return first && ts.isIdentifier(first.name) ? first.name.text : undefined;
}

/** `resolve`, `() => resolve()`, `() => { resolve(x); }`: a callback whose one job is to resolve. */
function onlyResolves(arg: ts.Expression, resolve: string): boolean {
  if (ts.isIdentifier(arg)) return arg.text === resolve;
  if (!(ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) return false;
  let body: ts.Node = arg.body;
  if (ts.isBlock(body)) {
    if (body.statements.length !== 1 || !ts.isExpressionStatement(body.statements[0])) return false;
    body = body.statements[0].expression;
  }
  return ts.isCallExpression(body) && ts.isIdentifier(body.expression) && body.expression.text === resolve;
}

/** The sleeps in one file's text. */
export function findSleeps(text: string, fileName = 'x.ts'): Sleep[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: Sleep[] = [];
  const add = (node: ts.Node, what: string) =>
    found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, kind: what });
  const visit = (node: ts.Node) => {
    const declared =
      ts.isFunctionDeclaration(node) && node.name
        ? node.name.text
        : ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isFunctionLike(node.initializer)
          ? node.name.text
          : undefined;
    if (declared && HELPER_NAMES.has(declared)) add(node, `a wait helper of its own (${declared})`);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (/^(node:)?timers\/promises$/.test(node.moduleSpecifier.text)) add(node, 'timers/promises (a promise that only waits)');
    }
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const [first] = node.arguments;
      if (name === 'waitForTimeout') add(node, 'waitForTimeout (Playwright: a fixed wait)');
      if (name === 'wait' && ts.isPropertyAccessExpression(node.expression) && calleeName(node.expression.expression) === 'Atomics')
        add(node, 'Atomics.wait (a blocking sleep)');
      if (name === 'promisify' && first && TIMER_NAMES.has(calleeName(first) ?? '')) add(node, 'promisify(setTimeout)');
      if ((name === 'import' || node.expression.kind === ts.SyntaxKind.ImportKeyword) && first && ts.isStringLiteral(first)) {
        if (/^(node:)?timers\/promises$/.test(first.text)) add(node, 'timers/promises (a promise that only waits)');
      }
      if (name && TIMER_NAMES.has(name) && first) {
        // A timer inside a Promise executor whose callback only resolves it: a sleep.
        for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
          const resolve = resolveParam(up);
          if (resolve) {
            if (onlyResolves(first, resolve)) add(node, 'new Promise resolved by a timer (a sleep)');
            break;
          }
          if (ts.isFunctionLike(up)) break;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
