import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A guard for "no English engine text in the window": product code raises its errors with
// `fail(code, key, params)` (src/errors.ts), so the window can word them in the user's language.
// A `new SkillDockError(code, 'An English sentence')` reaches a zh-CN or ja window as English.
// This reads every product source under src/ (not tests) with the TypeScript parser and fails on
// any `new SkillDockError(...)` outside src/errors.ts whose message is written out in the call
// (a string, a template or a concatenation of them) or that carries no message key (4th argument).

const srcDir = path.dirname(fileURLToPath(import.meta.url));

interface Offence {
  file: string;
  line: number;
  why: string;
  text: string;
}

function productFiles(dir: string, out: string[] = []): string[] {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== '__fixtures__' && ent.name !== 'node_modules') productFiles(full, out);
    } else if (/\.ts$/.test(ent.name) && !/\.d\.ts$/.test(ent.name) && !/\.test\.ts$/.test(ent.name)) {
      out.push(full);
    }
  }
  return out;
}

/** True when `node` is text written in the source: a string, a template, or `+` over any of them. */
function writtenText(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return writtenText(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return true;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return writtenText(node.left) || writtenText(node.right);
  }
  return false;
}

function offences(file: string, text = fs.readFileSync(file, 'utf8')): Offence[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Offence[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'SkillDockError') {
      const args = node.arguments ?? [];
      const why =
        args[1] && writtenText(args[1]) ? 'English message written in the call' : args.length < 4 ? 'no message key (4th argument)' : null;
      if (why) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ file: path.relative(srcDir, file), line, why, text: node.getText().slice(0, 120) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('engine errors are keyed, not English', () => {
  const all = productFiles(srcDir).filter((f) => path.relative(srcDir, f) !== 'errors.ts');

  it('no product file raises a SkillDockError with a written-out English message or without a key', () => {
    expect(all.length).toBeGreaterThan(50);
    const bad = all.flatMap((f) => offences(f));
    expect(bad, 'use fail(code, key, params) from src/errors.ts with the key in a src/contract/messages-*.ts').toEqual([]);
  });

  it('the check sees what it is for (and lets keyed errors through)', () => {
    const sample = [
      "throw new SkillDockError('refused', 'Not allowed');",
      'throw new SkillDockError("not-found", `No skill ${name}`);',
      "throw new SkillDockError('io', 'Cannot read ' + file, { file });",
      'throw new SkillDockError(code, english);',
      "throw new SkillDockError('refused', english, details, { key: 'x.y' });",
      "throw fail('refused', 'x.y', { name });",
    ].join('\n');
    expect(offences('sample.ts', sample).map((o) => [o.line, o.why])).toEqual([
      [1, 'English message written in the call'],
      [2, 'English message written in the call'],
      [3, 'English message written in the call'],
      [4, 'no message key (4th argument)'],
    ]);
  });
});
