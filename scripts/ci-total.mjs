// The closing lines of .ci/run: every failed test of every runner named again, then one
// `N passed, N failed, N skipped` line over all of them. A CI log keeps only its tail, and the
// real-agent suite runs after `npm test`, so the names `npm test` printed would be out of sight.
import fs from 'node:fs';

const file = process.argv[2];
let c;
try {
  c = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (e) {
  // No counts at all is a failure, never a silent pass.
  console.log(`\nthe counts file ${file} could not be read: ${e.message}`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
const problems = Array.isArray(c.problems) ? c.problems : [];
if (problems.length) console.log(`\nfailed, in every runner:\n${problems.map((p) => `! ${p}`).join('\n')}\n`);
console.log(`${c.passed ?? 0} passed, ${c.failed ?? 0} failed, ${c.skipped ?? 0} skipped`);
