import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliScript, resources, sandbox, type Sandbox } from '../../test/support/workspaces.js';
import { createService } from '../service.js';
import { Ledger, dayOf } from './ledger.js';
import { appendInbox } from './inbox.js';
import { scanLines } from './scan-lines.js';
import { hookUses } from './parsers.js';
import { summarize } from './service.js';

// The usage ledger: corrupt, huge and growing session logs; a format this build does not know;
// aggregation, dedupe and clearing; the CLI. The parsers' shapes are checked against transcripts
// the real pinned CLIs wrote in e2e/agents/usage.test.ts.

const DAY = 86_400_000;
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.done());

/** A Claude Code transcript line where the model calls its Skill tool (the shape the real CLI writes). */
function claudeSkillLine(skill: string, id: string, t = new Date().toISOString()): string {
  return JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    uuid: id,
    timestamp: t,
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Skill', input: { skill } }] },
  });
}
const claudeUserLine = (text: string) =>
  JSON.stringify({
    type: 'user',
    sessionId: 's1',
    uuid: 'u',
    timestamp: new Date().toISOString(),
    message: { role: 'user', content: text },
  });

function claudeLog(name = 'session.jsonl'): string {
  const dir = path.join(sb.userHome, '.claude', 'projects', '-work-p');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

function service() {
  return createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
}

describe('scanLines', () => {
  it('skips and counts corrupt lines, skips a line over the cap without holding it, and stops before an unfinished line', () => {
    const file = path.join(sb.dir, 'log.jsonl');
    const huge = `{"x":"${'a'.repeat(300_000)} SKILL.md"}`;
    fs.writeFileSync(
      file,
      ['{"ok":1,"m":"SKILL.md"}', 'not json at all', '{"torn":', huge, '', '{"ok":2}', '{"unfinished":"SKILL.md'].join('\n'),
    );
    const hits: string[] = [];
    const r = scanLines(file, {
      offset: 0,
      markers: [Buffer.from('SKILL.md')],
      sample: 0,
      onLine: (t) => hits.push(t),
      onSample: () => {},
      maxLine: 64 * 1024,
      chunk: 4096,
    });
    expect(r.tally).toEqual({ lines: 5, bad: 2, tooLong: 1 });
    expect(hits).toEqual(['{"ok":1,"m":"SKILL.md"}']);
    // The unfinished last line is left for the next scan, which reads only what follows.
    expect(r.offset).toBe(fs.readFileSync(file, 'utf8').lastIndexOf('\n') + 1);
    fs.appendFileSync(file, '"}\n');
    const again = scanLines(file, {
      offset: r.offset,
      markers: [Buffer.from('SKILL.md')],
      sample: 0,
      onLine: (t) => hits.push(t),
      onSample: () => {},
    });
    expect(again.tally).toEqual({ lines: 1, bad: 0, tooLong: 0 });
    expect(hits[1]).toBe('{"unfinished":"SKILL.md"}');
    expect(again.offset).toBe(fs.statSync(file).size);
  });

  it('a 40 MB line with no break is never held whole: counted as too long, the lines around it still read', () => {
    const file = path.join(sb.dir, 'big.jsonl');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '{"a":"SKILL.md"}\n{"big":"');
    const block = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 40; i++) fs.writeSync(fd, block);
    fs.writeSync(fd, '"}\n{"b":"SKILL.md"}\n');
    fs.closeSync(fd);
    const hits: string[] = [];
    const before = process.memoryUsage().arrayBuffers;
    const r = scanLines(file, {
      offset: 0,
      markers: [Buffer.from('SKILL.md')],
      sample: 0,
      onLine: (t) => hits.push(t),
      onSample: () => {},
      maxLine: 1024 * 1024,
    });
    expect(r.tally).toEqual({ lines: 3, bad: 0, tooLong: 1 });
    expect(hits).toEqual(['{"a":"SKILL.md"}', '{"b":"SKILL.md"}']);
    // Bounded memory: nothing near the line's 40 MB was kept.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('the ledger', () => {
  it('scans a Claude Code log incrementally: new lines only, corrupt lines counted, each tool call once', async () => {
    const s = service();
    try {
      await s.api.updateSettings({ usageReadLogs: true });
      const file = claudeLog();
      fs.writeFileSync(
        file,
        [claudeUserLine('hi'), claudeSkillLine('pdf-tools', 'toolu_1'), '{garbage', claudeSkillLine('pdf-tools', 'toolu_1')].join('\n') +
          '\n',
      );
      const first = await s.api.usageScan({});
      expect(first.rows).toMatchObject([{ skill: 'pdf-tools', agent: 'claude', counts: { d7: 1, d30: 1, d90: 1 } }]);
      expect(first.logs.claude).toMatchObject({ format: 'ok', files: 1, lines: 4, bad: 1 });
      const size = fs.statSync(file).size;
      expect(first.logs.claude!.bytesRead).toBe(size);

      fs.appendFileSync(file, claudeSkillLine('pdf-tools', 'toolu_2') + '\n');
      const second = await s.api.usageScan({});
      expect(second.rows[0]!.counts.d7).toBe(2);
      expect(second.logs.claude!.bytesRead).toBe(fs.statSync(file).size - size);
      const third = await s.api.usageScan({});
      expect(third.logs.claude!.bytesRead).toBe(0);
      expect(third.rows[0]!.counts.d7).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('a log format that changed makes that agent "unknown", not zero; reading logs is refused until opted in', async () => {
    const s = service();
    try {
      const refused = await s.call('usageScan', {});
      expect(refused).toMatchObject({ ok: false, error: { msg: { key: 'usage.logs-off' } } });
      await s.api.updateSettings({ usageReadLogs: true });
      // A future format: JSON lines, but none in the shape this build knows.
      const lines = Array.from({ length: 20 }, (_, i) => JSON.stringify({ kind: 'turn', n: i, call: { tool: 'Skill', arg: 'SKILL.md' } }));
      fs.writeFileSync(claudeLog(), lines.join('\n') + '\n');
      const r = await s.api.usageScan({});
      expect(r.unknown).toEqual(['claude']);
      expect(r.logs.claude!.format).toBe('unknown');
      expect(r.rows).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a hook and a log seeing the same tool call count it once; old events fold into days; clear forgets them', () => {
    const ledger = new Ledger(sb.home);
    const now = Date.now();
    appendInbox(sb.home, 'claude', [{ skill: 'a', t: now, id: 'toolu_9' }]);
    ledger.update((_d, add) => {
      expect(add('claude', { skill: 'a', t: now, id: 'toolu_9' }, 'log')).toBe(false);
      for (let i = 0; i < 30; i++) add('codex', { skill: 'b', t: now - (10 + i) * DAY }, 'log');
    }, now);
    const d = ledger.snapshot(now);
    expect(d.events.map((e) => `${e.agent}/${e.skill}/${e.via}`)).toEqual(['claude/a/hook']);
    expect(Object.keys(d.days)).toHaveLength(30);
    expect(d.days[dayOf(now - 10 * DAY)]).toEqual({ 'codex\tb': 1 });
    const sum = summarize(d, { readLogs: false }, now);
    // Day counts are whole days: the day a window starts on counts in full (uses 10..39 days ago: 10..30 in 30 days).
    expect(sum.rows.find((r) => r.skill === 'b')!.counts).toMatchObject({ d7: 0, d30: 21, d90: 30 });
    ledger.clear();
    expect(summarize(ledger.snapshot(now), { readLogs: false }, now).rows).toEqual([]);
  });

  it('keeps its size bounded: 20,000 uses in a week keep at most 5,000 single events, the rest as day counts', () => {
    const ledger = new Ledger(sb.home);
    const now = Date.now();
    ledger.update((_d, add) => {
      for (let i = 0; i < 20_000; i++) add('claude', { skill: `s${i % 50}`, t: now - (i % 6) * DAY - i }, 'hook');
    }, now);
    const d = ledger.snapshot(now);
    expect(d.events.length).toBeLessThanOrEqual(5_000);
    const total = d.events.length + Object.values(d.days).reduce((n, day) => n + Object.values(day).reduce((a, b) => a + b, 0), 0);
    expect(total).toBe(20_000);
    expect(fs.statSync(path.join(sb.home, 'usage', 'ledger.json')).size).toBeLessThan(1024 * 1024);
  });

  it('reads each hook dialect: Claude Skill and Read, Gemini activate_skill, Qwen skill, Codex shell; anything else is no use', () => {
    expect(hookUses({ tool_name: 'Skill', tool_input: { skill: 'plug:pdf' }, tool_use_id: 'toolu_1' }, 5)).toEqual([
      { skill: 'pdf', t: 5, id: 'toolu_1' },
    ]);
    expect(hookUses({ tool_name: 'Read', tool_input: { file_path: '/w/.claude/skills/notes/SKILL.md' } }, 5)).toEqual([
      { skill: 'notes', t: 5 },
    ]);
    expect(hookUses({ tool_name: 'activate_skill', tool_input: { name: 'g' } }, 5)).toEqual([{ skill: 'g', t: 5 }]);
    expect(hookUses({ tool_name: 'skill', tool_input: { skill: 'q' } }, 5)).toEqual([{ skill: 'q', t: 5 }]);
    expect(hookUses({ tool_name: 'Bash', tool_input: { command: "sed -n 1,200p '.agents/skills/c/SKILL.md'" } }, 5)).toEqual([
      { skill: 'c', t: 5 },
    ]);
    expect(hookUses({ tool_name: 'Read', tool_input: { file_path: '/w/README.md' } }, 5)).toEqual([]);
    expect(hookUses('nonsense', 5)).toEqual([]);
    expect(hookUses({ tool_name: 'Skill', tool_input: { skill: 'x'.repeat(10_000) } }, 5)).toEqual([]);
  });
});

describe('skilldock usage', () => {
  const cli = (args: string[], input = '') =>
    spawnSync(process.execPath, [cliScript, ...args], {
      env: {
        ...process.env,
        SKILLDOCK_HOME: sb.home,
        SKILLDOCK_USER_HOME: sb.userHome,
        HOME: sb.userHome,
        NO_COLOR: '1',
        SKILLDOCK_TRACE_LEAN: '1',
      },
      encoding: 'utf8',
      input,
      cwd: sb.dir,
      timeout: 60_000,
    });

  it('the hook records a use and answers nothing; usage lists it; scan needs the opt-in; clear empties it', () => {
    const hook = cli(['usage', 'hook', '--agent', 'claude'], JSON.stringify({ tool_name: 'Skill', tool_input: { skill: 'pdf' } }));
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe('');
    // It runs before each skill load and file read of the agent: the hook's small door answers it.
    expect(hook.stderr).toContain('lean start (usage hook door)');
    expect(cli(['usage', 'hook', '--agent', 'claude'], 'not json').status).toBe(0);
    const json = JSON.parse(cli(['usage', '--json', '--days', '3']).stdout);
    expect(json.rows).toMatchObject([{ skill: 'pdf', agent: 'claude', counts: { d7: 1, days: 1 } }]);
    expect(cli(['usage', '--agent', 'codex']).stdout).toContain('No skill use recorded yet.');
    expect(cli(['usage']).stdout).toMatch(/pdf\s+claude\s+today\s+1\s+1\s+1/);
    const off = cli(['usage', 'scan']);
    expect(off.status).toBe(1);
    expect(off.stderr).toContain("Reading the agents' own session logs is off");
    fs.writeFileSync(claudeLog(), claudeSkillLine('docx', 'toolu_5') + '\nbroken\n');
    const scan = cli(['usage', 'scan', '--opt-in']);
    expect(scan.status).toBe(0);
    expect(scan.stdout).toMatch(/docx\s+claude/);
    expect(scan.stdout).toContain('claude logs: 1 files, 2 new lines read, 1 bad lines skipped (ok)');
    expect(cli(['usage', '--days', '0']).status).toBe(2);
    expect(cli(['usage', 'clear']).status).toBe(0);
    expect(JSON.parse(cli(['usage', '--json']).stdout).rows).toEqual([]);
  }, 120_000);
});
