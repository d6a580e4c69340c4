import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../contract/index.js';
import { clean, parseDuration } from './cleanup.js';
import { ConversationLog, indexEntry, legacyConversationsStore, recordConversation } from './conversations.js';
import { writePid } from './in-use.js';
import { launchWorkspace } from './launch.js';
import { agent, cliScript, launchSkills, sandbox, treeHash, writeSkill, type Sandbox } from '../../test/support/workspaces.js';

let sb: Sandbox;
const children: ChildProcess[] = [];
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  sb.done();
});

async function launch(opts: { workspace?: string; agentId?: string } = {}): Promise<Conversation> {
  const big = writeSkill(sb.lib, 'big', {
    files: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`references/r${i}.md`, `ref ${i}\n`])),
  });
  const skills = await launchSkills([big]);
  const { conversation } = launchWorkspace({
    home: sb.home,
    userHome: sb.userHome,
    agent: agent(opts.agentId ?? 'claude'),
    assistant: { id: 'a', name: 'Cleaner', rules: '' },
    skills,
    ...(opts.workspace ? { workspace: opts.workspace } : {}),
    cli: { node: process.execPath, script: cliScript, env: {} },
  });
  recordConversation(new ConversationLog(sb.home), conversation);
  return conversation;
}

function sleeper(cwd: string): ChildProcess {
  const c = spawn('sleep', ['30'], { cwd, stdio: 'ignore' });
  children.push(c);
  return c;
}

describe('workspace cleanup', () => {
  it('removes an old temporary workspace, unlinking links without touching the folders behind them', async () => {
    const conv = await launch();
    // a second link, to a real folder full of files outside the library
    const outside = path.join(sb.dir, 'precious');
    fs.mkdirSync(outside);
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(outside, `f${i}.txt`), `data ${i}\n`);
    fs.symlinkSync(outside, path.join(conv.workspace, 'precious-link'), 'dir');
    const libBefore = treeHash(sb.lib);
    const outsideBefore = treeHash(outside);

    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false });
    expect(r.removed.map((x) => x.conversationId)).toEqual([conv.id]);
    expect(r.removed[0]!.linksRemoved).toBe(2);
    expect(fs.existsSync(conv.workspace)).toBe(false);
    expect(fs.existsSync(conv.dataDir)).toBe(false);
    expect(treeHash(sb.lib)).toBe(libBefore);
    expect(treeHash(outside)).toBe(outsideBefore);
    expect(fs.readdirSync(path.join(sb.lib, 'big', 'references'))).toHaveLength(30);
    // the record stays, marked removed, and a second clean has nothing to do
    expect(new ConversationLog(sb.home).list()[0]!.removedAt).toBeTruthy();
    expect(clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false }).removed).toEqual([]);
  });

  it('never touches a user workspace, only the skills view SkillDock kept for it', async () => {
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'main.ts'), 'export {};\n');
    const before = treeHash(project);
    const conv = await launch({ workspace: project });
    expect(fs.existsSync(path.join(conv.dataDir, 'view', '.claude', 'skills', 'big'))).toBe(true);
    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false });
    expect(r.removed.map((x) => x.conversationId)).toEqual([conv.id]);
    expect(treeHash(project)).toBe(before);
    expect(fs.existsSync(conv.dataDir)).toBe(false);
    expect(fs.readdirSync(path.join(sb.lib, 'big', 'references'))).toHaveLength(30);
  });

  it('keeps a workspace whose agent is still running (pid file)', async () => {
    const conv = await launch();
    const child = sleeper(sb.dir);
    await new Promise((r) => child.once('spawn', r));
    writePid(conv, child.pid!);
    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false });
    expect(r.removed).toEqual([]);
    expect(r.kept[0]!.reason).toBe(`in use: agent pid ${child.pid} is running`);
    expect(fs.existsSync(conv.workspace)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((res) => child.once('exit', res));
    expect(clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false }).removed).toHaveLength(1);
  });

  it.runIf(process.platform === 'linux')('keeps a workspace some process has its cwd in', async () => {
    const conv = await launch();
    const child = sleeper(conv.workspace);
    await new Promise((r) => child.once('spawn', r));
    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false });
    expect(r.kept[0]!.reason).toBe(`in use: process ${child.pid} has its working directory inside`);
    expect(fs.existsSync(conv.workspace)).toBe(true);
  });

  it('keeps recent workspaces and supports a dry run', async () => {
    const conv = await launch();
    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: parseDuration('7d')!, dryRun: false });
    expect(r.kept).toEqual([{ conversationId: conv.id, workspace: conv.workspace, reason: 'last used 0 min ago' }]);
    const dry = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: true });
    expect(dry.removed.map((x) => x.conversationId)).toEqual([conv.id]);
    expect(fs.existsSync(conv.workspace)).toBe(true);
  });

  it('refuses a record whose workspace path is not its own dir under <home>/workspaces', async () => {
    const conv = await launch();
    const victim = path.join(sb.dir, 'victim');
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'keep.txt'), 'keep\n');
    // tamper with the recorded index line (what cleanup trusts)
    const index = new ConversationLog(sb.home).indexFile;
    const line = JSON.parse(fs.readFileSync(index, 'utf8').trim());
    fs.writeFileSync(index, `${JSON.stringify({ ...line, workspace: victim })}\n`);
    const r = clean(sb.home, new ConversationLog(sb.home), { olderThanMs: 0, dryRun: false });
    expect(r.removed).toEqual([]);
    expect(r.kept[0]!.reason).toMatch(/^not removed: recorded path is not/);
    expect(fs.readFileSync(path.join(victim, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(fs.existsSync(conv.workspace)).toBe(true);
  });

  it('reads conversations recorded by earlier versions (conversations.json) and cleans them up too', async () => {
    const conv = await launch();
    // move the record to where earlier versions kept it
    const log = new ConversationLog(sb.home);
    fs.rmSync(log.indexFile);
    legacyConversationsStore(sb.home).update((f) => {
      f.conversations.push(indexEntry(conv));
    });
    expect(log.list().map((c) => c.id)).toEqual([conv.id]);
    const r = clean(sb.home, log, { olderThanMs: 0, dryRun: false });
    expect(r.removed.map((x) => x.conversationId)).toEqual([conv.id]);
    expect(log.list()[0]!.removedAt).toBeTruthy();
    expect(fs.existsSync(conv.workspace)).toBe(false);
  });

  it('skips a line torn by a crash in the conversation index', async () => {
    const conv = await launch();
    const log = new ConversationLog(sb.home);
    fs.appendFileSync(log.indexFile, '{"id":"torn-20261202-1');
    expect(log.list().map((c) => c.id)).toEqual([conv.id]);
    // the next launch is not glued to the torn line
    const next = await launch();
    expect(log.list().map((c) => c.id)).toEqual([conv.id, next.id]);
  });

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(7 * 86_400_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('3')).toBe(3 * 86_400_000);
    expect(parseDuration('soon')).toBeNull();
  });
});
