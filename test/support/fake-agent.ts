import fs from 'node:fs';
import path from 'node:path';

// Stand-in agent CLIs for `verify` where no real one is wanted: the browser test and the bad-input
// tests. Each is a real executable script run by the real engine (a real process group, the real
// recorder); the real CLIs are proven in e2e/agents/verify.test.ts.

function script(dir: string, name: string, text: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o755 });
  fs.chmodSync(file, 0o755);
  return file;
}

/**
 * A Claude Code look-alike: it reads `~/.claude/skills/*\/SKILL.md` (the scratch home's, linked to
 * the user's) and sends the recorder Claude Code's listing reminder, every description in full but
 * one over `cutOver` characters listed by name only: the difference a newer version could make.
 */
export function fakeClaude(dir: string, cutOver = 60): string {
  return script(
    dir,
    'claude',
    `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
if (process.argv.includes('--version')) { console.log('9.9.9 (Claude Code)'); process.exit(0); }
const root = path.join(process.env.HOME, '.claude', 'skills');
const lines = [];
for (const dir of fs.existsSync(root) ? fs.readdirSync(root).sort() : []) {
  let text = '';
  try { text = fs.readFileSync(path.join(root, dir, 'SKILL.md'), 'utf8'); } catch { continue; }
  const d = /^description: (.*)$/m.exec(text);
  const description = d ? d[1] : '';
  lines.push(description.length > ${cutOver} ? '- ' + dir : '- ' + dir + ': ' + description);
}
const reminder = '<system-reminder>\\nThe following skills are available for use with the Skill tool:\\n\\n' + lines.join('\\n') + '\\n\\n</system-reminder>';
fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY },
  body: JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: [{ type: 'text', text: reminder }] }] }),
}).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(2));
`,
  );
}

/** A CLI that never ends: it starts a helper in its group and records both ids in `pids`. */
export function hangingCli(dir: string, pids: string): string {
  return script(
    dir,
    'hangs',
    `#!/bin/sh
[ "$1" = "--version" ] && { echo "1.0.0"; exit 0; }
sleep 600 &
echo "$! $$" > "${pids}"
wait
`,
  );
}

/** A CLI that asks for a login on the terminal (there is none: it gets no answer) and stops. */
export function loginCli(dir: string): string {
  return script(
    dir,
    'asks-login',
    `#!/bin/sh
[ "$1" = "--version" ] && { echo "1.0.0"; exit 0; }
echo "Please log in to continue."
printf "Password: " > /dev/tty
read -r answer < /dev/tty
exit 1
`,
  );
}

/** A CLI that answers without any model call (a version that ignores the base-URL setting). */
export function offlineCli(dir: string): string {
  return script(
    dir,
    'ignores-url',
    `#!/bin/sh
[ "$1" = "--version" ] && { echo "0.0.1"; exit 0; }
echo "Hello from a model elsewhere."
exit 0
`,
  );
}
