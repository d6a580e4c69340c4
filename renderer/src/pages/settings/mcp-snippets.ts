// How each popular MCP host is told to start `skilldock mcp` (stdio): the one command line that
// adds it, where the host keeps its configuration, and the snippet to paste there. Host names and
// file names are proper nouns; only the labels around them are translated.

export type McpHostId = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'gemini' | 'codex';

export interface McpHostSetup {
  id: McpHostId;
  name: string;
  /** A command that adds the server, when the host has one. */
  command: string | null;
  /** Where the snippet goes. */
  file: string;
  snippet: string;
}

const stdio = { command: 'skilldock', args: ['mcp'] };
const json = (v: unknown) => JSON.stringify(v, null, 2);

/** `args` beyond `mcp` (a scope: `--assistant NAME`, `--skill a,b`). */
export function mcpHosts(extra: string[] = []): McpHostSetup[] {
  const args = [...stdio.args, ...extra];
  const line = ['skilldock', ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  const server = { command: stdio.command, args };
  return [
    {
      id: 'claude-desktop',
      name: 'Claude Desktop',
      command: null,
      file: 'claude_desktop_config.json',
      snippet: json({ mcpServers: { skilldock: server } }),
    },
    {
      id: 'claude-code',
      name: 'Claude Code',
      command: `claude mcp add skilldock -- ${line}`,
      file: '.mcp.json',
      snippet: json({ mcpServers: { skilldock: server } }),
    },
    { id: 'cursor', name: 'Cursor', command: null, file: '~/.cursor/mcp.json', snippet: json({ mcpServers: { skilldock: server } }) },
    {
      id: 'vscode',
      name: 'VS Code',
      command: `code --add-mcp '${JSON.stringify({ name: 'skilldock', ...server })}'`,
      file: '.vscode/mcp.json',
      snippet: json({ servers: { skilldock: { type: 'stdio', ...server } } }),
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      command: `gemini mcp add skilldock ${line}`,
      file: '~/.gemini/settings.json',
      snippet: json({ mcpServers: { skilldock: server } }),
    },
    {
      id: 'codex',
      name: 'Codex',
      command: `codex mcp add skilldock -- ${line}`,
      file: '~/.codex/config.toml',
      snippet: `[mcp_servers.skilldock]\ncommand = "skilldock"\nargs = [${args.map((a) => JSON.stringify(a)).join(', ')}]\n`,
    },
  ];
}
