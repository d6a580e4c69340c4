import type { Answer, Recorded, Script } from '../../src/verify/recorder.js';

// What the recording model server answers when a test needs the CLI to act: the first main request
// gets one tool call, every later one plain text, so the CLI makes the call once (its hook runs),
// sends the result back and stops. Per model API, in the wire format the pinned CLI reads.

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

function json(body: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Gemini API (`:streamGenerateContent?alt=sse`): the text of the tool result the CLI sent back, if any. */
export function geminiToolResult(req: Recorded): string | null {
  const body = json(req.body);
  const contents = Array.isArray(body?.contents) ? (body.contents as Array<{ parts?: Array<Record<string, unknown>> }>) : [];
  const last = contents[contents.length - 1];
  const part = last?.parts?.find((p) => p.functionResponse);
  return part ? JSON.stringify(part.functionResponse) : null;
}

function geminiSse(part: Record<string, unknown>): Answer {
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
  return { contentType: 'text/event-stream', body: `data: ${JSON.stringify(chunk)}\n\n` };
}

/**
 * Gemini CLI: its main requests stream (`streamGenerateContent`); the prompt router's side request
 * (`generateContent`) keeps the recorder's error, and the CLI falls back to its default model.
 */
export function geminiScript(call: ToolCall): Script {
  return (req) => {
    if (!req.url.includes(':streamGenerateContent')) return undefined;
    if (geminiToolResult(req) !== null) return geminiSse({ text: 'Done.' });
    return geminiSse({ functionCall: { name: call.name, args: call.args } });
  };
}

/** OpenAI chat completions: the text of the tool result the CLI sent back (a `tool` message), if any. */
export function openaiToolResult(req: Recorded): string | null {
  const body = json(req.body);
  const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? JSON.stringify(last.content) : null;
}

function openaiSse(delta: Record<string, unknown>, finish: string): Answer {
  const chunk = (d: Record<string, unknown>, f: string | null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: d, finish_reason: f }] })}\n\n`;
  return { contentType: 'text/event-stream', body: `${chunk({ role: 'assistant', ...delta }, null)}${chunk({}, finish)}data: [DONE]\n\n` };
}

/** A CLI on the OpenAI chat completions API, streaming (Qwen Code): one tool call, then text. */
export function openaiChatScript(call: ToolCall): Script {
  return (req) => {
    if (!req.url.includes('/chat/completions') || json(req.body)?.stream !== true) return undefined;
    if (openaiToolResult(req) !== null) return openaiSse({ content: 'Done.' }, 'stop');
    const tool = { index: 0, id: 'call_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
    return openaiSse({ tool_calls: [tool] }, 'tool_calls');
  };
}

/**
 * Codex 0.171.0 (Responses API, streaming): its model acts through one `exec` tool (code mode) whose
 * input is JavaScript calling the nested tools (`await tools.exec_command({cmd})`,
 * `await tools.apply_patch(patch)`); the hooks run on those nested calls. One `exec` call, then text.
 */
export function codexScript(js: string): Script {
  const usage = {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  };
  const respond = (id: string, item: Record<string, unknown>): Answer => ({
    contentType: 'text/event-stream',
    body: [
      { type: 'response.created', response: { id } },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id, usage } },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join(''),
  });
  return (req) => {
    if (!req.url.endsWith('/responses')) return undefined;
    if (codexToolResult(req) !== null) {
      return respond('r2', {
        type: 'message',
        role: 'assistant',
        id: 'm1',
        content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
      });
    }
    return respond('r1', { type: 'custom_tool_call', id: 'ctc1', call_id: 'call_1', name: 'exec', input: js, status: 'completed' });
  };
}

/** Codex: the output of the `exec` call the CLI sent back (the nested tools' results or the hook's block), if any. */
export function codexToolResult(req: Recorded): string | null {
  const input = json(req.body)?.input;
  const out = Array.isArray(input)
    ? (input as Array<Record<string, unknown>>).find((i) => i.type === 'custom_tool_call_output')
    : undefined;
  return out ? JSON.stringify(out.output) : null;
}

/** Anthropic Messages API: the text of the tool result the CLI sent back (the last user turn's `tool_result`), if any. */
export function anthropicToolResult(req: Recorded): string | null {
  const body = json(req.body);
  const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const last = messages[messages.length - 1];
  const blocks = last?.role === 'user' && Array.isArray(last.content) ? (last.content as Array<Record<string, unknown>>) : [];
  const result = blocks.find((b) => b.type === 'tool_result');
  return result ? JSON.stringify(result.content ?? '') : null;
}

function anthropicSse(block: Record<string, unknown>, delta: Record<string, unknown>, stop: string): Answer {
  const events: Array<Record<string, unknown>> = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-recorded',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: block },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ];
  return { contentType: 'text/event-stream', body: events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('') };
}

/**
 * Claude Code (Messages API, streaming): its main requests carry the tools; side requests (titles,
 * quota) keep the recorder's error. One tool call, then text.
 */
export function anthropicScript(call: ToolCall): Script {
  return (req) => {
    const body = json(req.body);
    if (!req.url.includes('/messages') || body?.stream !== true || !Array.isArray(body.tools) || !body.tools.length) return undefined;
    if (anthropicToolResult(req) !== null)
      return anthropicSse({ type: 'text', text: '' }, { type: 'text_delta', text: 'Done.' }, 'end_turn');
    return anthropicSse(
      { type: 'tool_use', id: 'toolu_1', name: call.name, input: {} },
      { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
      'tool_use',
    );
  };
}
