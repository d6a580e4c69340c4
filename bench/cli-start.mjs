// Whole-process start of the `skilldock` command against bare Node, measured in the same run:
// `--help`, `list --json` on a 50-skill library, and `policy check-write --hook` (it runs before
// every file write of an agent in a launched workspace). Medians of interleaved runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);

function time(args, opts) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench({ log, root }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-cli-'));
  try {
    const home = path.join(dir, 'home');
    const userHome = path.join(dir, 'user');
    const lib = path.join(home, 'library');
    for (let i = 0; i < 50; i++) {
      const d = path.join(lib, `skill-${i}`);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(
        path.join(d, 'SKILL.md'),
        `---\nname: skill-${i}\ndescription: Skill number ${i} for the start bench.\n---\nBody.\n`,
      );
    }
    fs.mkdirSync(userHome, { recursive: true });
    const env = { ...process.env, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome, HOME: userHome, NO_COLOR: '1' };
    const cli = path.join(root, 'bin', 'skilldock.js');
    // The hook as an agent runs it: inside a launched conversation (its log read, a skill's legacy
    // path among the rules), for a write the policy allows.
    const sd = (...args) => spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    const made = sd('assistant', 'create', '--name', 'Bench', '--agent', 'claude', '--skill', 'skill-1', '--skill', 'skill-2');
    if (made.status !== 0) throw new Error(`assistant for the hook bench: ${made.stderr}`);
    const launched = sd('launch', 'Bench', '--temporary', '--json');
    if (launched.status !== 0) throw new Error(`launch for the hook bench failed: ${launched.stderr}`);
    const conv = JSON.parse(launched.stdout);
    const hookInput = JSON.stringify({
      cwd: conv.workspace,
      tool_name: 'Write',
      tool_input: { file_path: path.join(conv.workspace, 'notes.md') },
    });
    const hookArgs = [cli, 'policy', 'check-write', '--hook', '--conversation', conv.conversationId];
    const cases = {
      node: () => time(['-e', '0'], { env }),
      help: () => time([cli, '--help'], { env }),
      list: () => time([cli, 'list', '--json'], { env }),
      hook: () => time(hookArgs, { env, input: hookInput }),
    };
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (const f of Object.values(cases)) f(); // warm the file cache
    for (let i = 0; i < RUNS; i++) for (const [k, f] of Object.entries(cases)) samples[k].push(f());
    const floor = median(samples.node);
    const line = (name, key, target) => {
      const ms = median(samples[key]);
      log(
        `cli-start ${name}: ${(ms / floor).toFixed(2)}x node -e 0 (floor ${floor.toFixed(0)} ms, ours ${ms.toFixed(0)} ms) target <= ${target}`,
      );
    };
    line('--help', 'help', '1.5 (issue 16)');
    line('list --json (50 skills)', 'list', '1.5 (issue 16)');
    line('policy check-write --hook', 'hook', '1.5 (issue 13)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
