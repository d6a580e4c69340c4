#!/usr/bin/env node
// Prepend the commits since the last tag to CHANGELOG.md, grouped by conventional type.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const last = execFileSync('git', ['describe', '--tags', '--abbrev=0'], { encoding: 'utf8' }).trim();
const log = execFileSync('git', ['log', `${last}..HEAD`, '--pretty=%s'], { encoding: 'utf8' }).trim().split('\n');
const groups = { feat: [], fix: [], other: [] };
for (const subject of log.filter(Boolean)) {
  const type = /^(\w+)(\(.+\))?:/.exec(subject)?.[1];
  (groups[type] ?? groups.other).push(subject);
}
const section = [`## Unreleased`, ...Object.entries(groups).flatMap(([k, v]) => (v.length ? [`### ${k}`, ...v.map((s) => `- ${s}`)] : []))].join('\n');
const old = existsSync('CHANGELOG.md') ? readFileSync('CHANGELOG.md', 'utf8') : '# Changelog\n';
writeFileSync('CHANGELOG.md', old.replace(/^# Changelog\n/, `# Changelog\n\n${section}\n`));
console.log(section);
