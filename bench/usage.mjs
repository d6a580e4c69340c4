// The usage ledger's scan of the agents' own session logs (src/usage), in process through the real
// service: 200 MB of Claude Code transcripts and Codex rollouts (lines shaped like theirs: long tool
// results, a skill load now and then, a few corrupt lines), against a floor of reading the same
// files line by line in Node (readline over a read stream, counting lines). Then incremental: 1 MB
// appended to one file, scanned again (only the new bytes are read). Median of several runs, the
// floor measured in this run.
//   target: full scan <= 1.5x the floor
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { loadEngine, median, removeAtExit } from './engine.mjs';

const TOTAL = 200 * 1024 * 1024;
const FILES = 80;
const RUNS = 5;

function claudeLine(i, t, f = 0) {
  if (i % 400 === 7)
    return JSON.stringify({
      type: 'assistant',
      sessionId: 's',
      uuid: `u${i}`,
      timestamp: t,
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: `toolu_${f}_${i}`, name: 'Skill', input: { skill: `skill-${i % 37}` } }],
      },
    });
  if (i % 997 === 3) return '{"type":"assistant","broken';
  const body = 'x'.repeat(200 + ((i * 7919) % 6000));
  return JSON.stringify({
    type: 'user',
    sessionId: 's',
    uuid: `u${i}`,
    timestamp: t,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: body }] },
  });
}

function codexLine(i, t, f = 0) {
  if (i % 400 === 11)
    return JSON.stringify({
      timestamp: t,
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'exec_command',
        call_id: `call_${f}_${i}`,
        arguments: JSON.stringify({ cmd: `cat .agents/skills/skill-${i % 23}/SKILL.md` }),
      },
    });
  const body = 'y'.repeat(200 + ((i * 104729) % 6000));
  return JSON.stringify({
    timestamp: t,
    type: 'response_item',
    payload: { type: 'function_call_output', call_id: `call_${i - 1}`, output: body },
  });
}

function writeLogs(userHome) {
  const t = new Date().toISOString();
  const files = [];
  const per = TOTAL / FILES;
  for (let f = 0; f < FILES; f++) {
    const claude = f % 2 === 0;
    const dir = claude
      ? path.join(userHome, '.claude', 'projects', `-p${f % 8}`)
      : path.join(userHome, '.codex', 'sessions', '2026', '12', String(1 + (f % 7)).padStart(2, '0'));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, claude ? `session-${f}.jsonl` : `rollout-${f}.jsonl`);
    const parts = [];
    let size = 0;
    for (let i = 0; size < per; i++) {
      const line = `${claude ? claudeLine(i, t, f) : codexLine(i, t, f)}\n`;
      parts.push(line);
      size += line.length;
    }
    fs.writeFileSync(file, parts.join(''));
    files.push(file);
  }
  return files;
}

async function floor(files) {
  let lines = 0;
  for (const file of files) {
    const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    for await (const _ of rl) lines++;
  }
  return lines;
}

const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;

export default async function usageBench({ log, root }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-usage-'));
  removeAtExit(tmp);
  const engine = await loadEngine(root, tmp, "export { createService } from './src/service.ts';");
  const userHome = path.join(tmp, 'user');
  const files = writeLogs(userHome);
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  await floor(files); // warm the page cache for both
  const floors = [];
  const ours = [];
  let last = null;
  for (let r = 0; r < RUNS; r++) {
    let t = process.hrtime.bigint();
    await floor(files);
    floors.push(ms(t));
    // A fresh home each run: the whole 200 MB is new to it.
    const svc = engine.createService({
      paths: { home: path.join(tmp, `home-${r}`), userHome, resourcesDir: path.join(root, 'resources') },
    });
    await svc.api.updateSettings({ usageReadLogs: true });
    t = process.hrtime.bigint();
    last = await svc.api.usageScan({});
    ours.push(ms(t));
    if (r < RUNS - 1) await svc.close();
    else last.svc = svc;
  }
  const f = median(floors);
  const o = median(ours);
  const read = (last.logs.claude?.bytesRead ?? 0) + (last.logs.codex?.bytesRead ?? 0);
  const uses = last.rows.reduce((n, row) => n + row.counts.d7, 0);
  const bad = (last.logs.claude?.bad ?? 0) + (last.logs.codex?.bad ?? 0);
  log(
    `usage scan ${(bytes / 1048576).toFixed(0)} MB of session logs (${FILES} files): ${(o / f).toFixed(2)}x floor (floor ${f.toFixed(0)} ms readline, ours ${o.toFixed(0)} ms; ${uses} uses, ${bad} bad lines skipped, ${(read / 1048576).toFixed(0)} MB read) target <= 1.5`,
  );

  // Incremental: 1 MB more in one file; only that is read.
  const svc = last.svc;
  const grow = files[0];
  const extra = Array.from({ length: 200 }, (_, i) => `${claudeLine(100_000 + i, new Date().toISOString())}\n`).join('');
  const incr = [];
  let lastRead = 0;
  for (let r = 0; r < RUNS; r++) {
    fs.appendFileSync(grow, extra);
    const t = process.hrtime.bigint();
    const s = await svc.api.usageScan({});
    incr.push(ms(t));
    lastRead = (s.logs.claude?.bytesRead ?? 0) + (s.logs.codex?.bytesRead ?? 0);
  }
  await svc.close();
  log(
    `usage scan incremental (+${(Buffer.byteLength(extra) / 1024).toFixed(0)} KB in 1 of ${FILES} files): ${median(incr).toFixed(1)} ms, ${(lastRead / 1024).toFixed(0)} KB read (only the new bytes)`,
  );
}
