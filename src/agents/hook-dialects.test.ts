import { describe, expect, it } from 'vitest';
import { GUARD_KINDS, hookDenyAnswer, isGuardKind, readHookInput } from './hook-dialects.js';

// The stdin each CLI's hook gets, as recorded from the pinned CLIs (e2e/agents/guard.test.ts runs
// them for real), read into the guard's one shape; and each CLI's deny answer.

const GEMINI_SHELL = {
  session_id: 'a1a04701-fa07-406f-b73a-cc415985e95a',
  transcript_path: '/h/.gemini/tmp/ws/chats/session-2026-12-04T05-46-a1a04701.jsonl',
  cwd: '/w/ws',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-12-04T05:46:49.785Z',
  tool_name: 'run_shell_command',
  tool_input: { command: 'mkdir -p ~/code && echo note >> ~/code/memory.md' },
};

describe('reading a hook call', () => {
  it('Gemini CLI BeforeTool: the shell line of run_shell_command, the path of write_file and replace', () => {
    expect(readHookInput('gemini-beforetool', GEMINI_SHELL)).toEqual({
      paths: [],
      command: 'mkdir -p ~/code && echo note >> ~/code/memory.md',
      cwd: '/w/ws',
    });
    const write = { ...GEMINI_SHELL, tool_name: 'write_file', tool_input: { file_path: '/h/code/memory.md', content: 'x' } };
    expect(readHookInput('gemini-beforetool', write)).toEqual({ paths: ['/h/code/memory.md'], command: null, cwd: '/w/ws' });
    const replace = { ...GEMINI_SHELL, tool_name: 'replace', tool_input: { file_path: 'notes.md', old_string: 'a', new_string: 'b' } };
    expect(readHookInput('gemini-beforetool', replace).paths).toEqual(['notes.md']);
  });

  it('Claude Code PreToolUse: Write, NotebookEdit and Bash', () => {
    const base = { session_id: 's', hook_event_name: 'PreToolUse', cwd: '/w' };
    expect(
      readHookInput('claude-pretooluse', { ...base, tool_name: 'Write', tool_input: { file_path: '/a/b', content: '' } }).paths,
    ).toEqual(['/a/b']);
    expect(
      readHookInput('claude-pretooluse', { ...base, tool_name: 'NotebookEdit', tool_input: { notebook_path: '/n.ipynb' } }).paths,
    ).toEqual(['/n.ipynb']);
    expect(readHookInput('claude-pretooluse', { ...base, tool_name: 'Bash', tool_input: { command: 'ls' } }).command).toBe('ls');
  });

  it('Copilot CLI preToolUse: toolName and toolArgs (an object, or a JSON string); only bash, create and edit count', () => {
    // as Copilot CLI 1.0.102 sent it
    const shell = {
      sessionId: 'a4217e54-f5e5-41ed-909a-d0bfbf38dca7',
      timestamp: 1796367806777,
      cwd: '/w/ws',
      toolName: 'bash',
      toolArgs: { command: 'mkdir -p ~/code && echo note >> ~/code/memory.md', description: 'note' },
    };
    expect(readHookInput('copilot-pretooluse', shell)).toEqual({ paths: [], command: shell.toolArgs.command, cwd: '/w/ws' });
    const create = { ...shell, toolName: 'create', toolArgs: JSON.stringify({ path: '/h/code/memory.md', file_text: 'x' }) };
    expect(readHookInput('copilot-pretooluse', create)).toEqual({ paths: ['/h/code/memory.md'], command: null, cwd: '/w/ws' });
    expect(
      readHookInput('copilot-pretooluse', { ...shell, toolName: 'edit', toolArgs: { path: 'a.md', old_str: 'a', new_str: 'b' } }).paths,
    ).toEqual(['a.md']);
    // reading a file is not a write; a broken toolArgs string is nothing to check
    expect(readHookInput('copilot-pretooluse', { ...shell, toolName: 'view', toolArgs: { path: '/h/code/memory.md' } })).toEqual({
      paths: [],
      command: null,
      cwd: '/w/ws',
    });
    expect(readHookInput('copilot-pretooluse', { ...shell, toolArgs: '{not json' })).toEqual({ paths: [], command: null, cwd: '/w/ws' });
  });

  it('Codex PreToolUse: the command of Bash, every file an apply_patch patch adds, updates, deletes or moves to', () => {
    // as Codex 0.171.0 sent it
    const shell = {
      session_id: '01a2402e-a587-7c72-a8d5-04ccaa7e44a4',
      turn_id: '01a2402e-a5a3-7f70-a489-a40ad142c93a',
      transcript_path: '/h/.codex/sessions/2026/12/04/rollout.jsonl',
      cwd: '/w/ws',
      hook_event_name: 'PreToolUse',
      model: 'gpt-6.2-sol',
      permission_mode: 'bypassPermissions',
      tool_name: 'Bash',
      tool_input: { command: 'mkdir -p ~/code && echo note >> ~/code/memory.md' },
      tool_use_id: 'exec-604e61bc',
    };
    expect(readHookInput('codex-pretooluse', shell)).toEqual({ paths: [], command: shell.tool_input.command, cwd: '/w/ws' });
    const patch = [
      '*** Begin Patch',
      '*** Add File: /h/code/memory.md',
      '+note',
      '*** Update File: notes/a.md',
      '*** Move to: notes/b.md',
      '@@',
      '-x',
      '+*** Add File: not/a/header.md',
      '*** Delete File: old.md',
      '*** Update File: notes/a.md',
      '*** End Patch',
      '',
    ].join('\n');
    expect(readHookInput('codex-pretooluse', { ...shell, tool_name: 'apply_patch', tool_input: { command: patch } })).toEqual({
      paths: ['/h/code/memory.md', 'notes/a.md', 'notes/b.md', 'old.md'],
      command: null,
      cwd: '/w/ws',
    });
    expect(readHookInput('codex-pretooluse', { ...shell, tool_name: 'read_file', tool_input: { command: 'x' } })).toEqual({
      paths: [],
      command: null,
      cwd: '/w/ws',
    });
  });

  it('anything else reads as nothing to check, never a crash', () => {
    for (const junk of [null, 42, 'text', [], { tool_input: 'x' }, { tool_input: { file_path: 7, command: ['rm'] } }, { cwd: 3 }]) {
      expect(readHookInput('gemini-beforetool', junk)).toEqual({ paths: [], command: null, cwd: null });
      expect(readHookInput('copilot-pretooluse', junk)).toEqual({ paths: [], command: null, cwd: null });
      expect(readHookInput('codex-pretooluse', junk)).toEqual({ paths: [], command: null, cwd: null });
    }
  });
});

describe('the deny answer', () => {
  const reason = 'Writes to ~/code/memory.md go to the state dir. Suggested path: /s/code-1.0.4/memory.md';

  it('Gemini CLI: decision deny with the reason', () => {
    expect(JSON.parse(hookDenyAnswer('gemini-beforetool', reason))).toEqual({ decision: 'deny', reason });
  });

  it('Claude Code, Qwen Code and Codex: hookSpecificOutput.permissionDecision deny', () => {
    for (const kind of ['claude-pretooluse', 'qwen-pretooluse', 'codex-pretooluse'] as const) {
      expect(JSON.parse(hookDenyAnswer(kind, reason))).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
      });
    }
  });

  it('Copilot CLI: permissionDecision deny at the top level', () => {
    expect(JSON.parse(hookDenyAnswer('copilot-pretooluse', reason))).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    });
  });

  it('every kind has an answer that carries the reason; unknown kinds are refused', () => {
    for (const kind of GUARD_KINDS) expect(hookDenyAnswer(kind, reason)).toContain('Suggested path: /s/code-1.0.4/memory.md');
    expect(isGuardKind('gemini-beforetool')).toBe(true);
    expect(isGuardKind('cursor')).toBe(false);
  });
});
