import type { CliCommand } from '../types.js';

// The command table: what `skilldock --help` prints and how a command is found. Each command's
// code (its usage and run) lives in its own file, loaded only when that command runs or prints its
// own help: a start compiles one command, never all of them. Add one entry per command.
export const commands: CliCommand[] = [
  {
    name: 'serve',
    summary: 'Serve the browser UI on 127.0.0.1 (token-protected) until stopped',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  {
    name: 'mcp',
    summary: 'Serve the library to MCP hosts (stdio, or --http on 127.0.0.1 with a token): the Skills extension, tools and prompts',
    protocolOut: true,
    load: async () => (await import('./mcp.js')).mcpCommand,
  },
  {
    name: 'assistant',
    summary: 'list, show, create, edit, attach/detach skills, duplicate, delete, export and import assistants',
    load: async () => (await import('./assistant.js')).assistantCommand,
  },
  {
    name: 'launch',
    summary: "Start a conversation: a workspace with the assistant's skills linked where its agent looks",
    load: async () => (await import('./launch.js')).launchCommand,
  },
  {
    name: 'workspaces',
    summary: 'List and clean up per-conversation workspaces',
    load: async () => (await import('./workspaces.js')).workspacesCommand,
  },
  {
    name: 'state',
    summary: 'Skill state dirs: resolve skill://state/ URIs, list the dirs',
    load: async () => (await import('./state.js')).stateCommand,
  },
  {
    name: 'usage',
    summary: 'Which skills agents really loaded (last use, counts over 7/30/90 days); scan their logs (opt-in); clear',
    load: async () => (await import('./usage.js')).usageCommand,
  },
  {
    name: 'policy',
    summary: 'Check where an agent may write during a conversation',
    lean: true,
    load: async () => (await import('./policy.js')).policyCommand,
  },
  {
    name: 'agents',
    summary: 'The agent registry: where each agent CLI reads skills and how SkillDock launches it; add your own',
    load: async () => (await import('./agents.js')).agentsCommand,
  },
  {
    name: 'lint',
    summary: 'Lint skill folders or roots of skills against the spec and each agent’s loader',
    load: async () => (await import('./lint.js')).lintCommand,
  },
  {
    name: 'list',
    summary: 'List the skills in every root, with precedence and lint counts',
    lean: true,
    load: async () => (await import('./list.js')).listCommand,
  },
  {
    name: 'show',
    summary: 'Activate a skill: its body, folder and resource files',
    load: async () => (await import('./show.js')).showCommand,
  },
  {
    name: 'roots',
    summary: 'Show the skill roots in precedence order and which agents read each',
    load: async () => (await import('./roots.js')).rootsCommand,
  },
  {
    name: 'agents-view',
    summary: 'What one agent will load: its roots, shadowing, dropped skills, catalog budget',
    load: async () => (await import('./agents-view.js')).agentsViewCommand,
  },
  {
    name: 'verify',
    summary:
      "Check with the real agent: run its installed CLI once offline and compare what it sends its model with SkillDock's prediction",
    load: async () => (await import('./verify.js')).verifyCommand,
  },
  {
    name: 'scan',
    summary: 'Security scan of skills (or files): what their scripts and instructions could do',
    load: async () => (await import('./scan.js')).scanCommand,
  },
  {
    name: 'approve',
    summary: 'Approve the scripts of a skill (pinned to their digest), or list, diff, check and revoke approvals',
    load: async () => (await import('./approve.js')).approveCommand,
  },
  {
    name: 'catalog',
    summary: 'Catalogs of skills to search: list, add, remove, enable/disable, refresh their indexes',
    load: async () => (await import('./catalog.js')).catalogCommand,
  },
  {
    name: 'search',
    summary: 'Search the subscribed catalogs offline (ranked, typo-tolerant) with filters',
    load: async () => (await import('./search.js')).searchCommand,
  },
  {
    name: 'import',
    summary: 'Import skill folders, parent folders of skills, or .zip/.skill archives into the library',
    load: async () => (await import('./import.js')).importCommand,
  },
  {
    name: 'adopt',
    summary: "List skills in agents' user folders, or adopt them into the library by copy or link",
    load: async () => (await import('./adopt.js')).adoptCommand,
  },
  {
    name: 'delete',
    summary: 'Move library skills to the trash (a linked skill: only the link goes)',
    load: async () => (await import('./delete.js')).deleteCommand,
  },
  {
    name: 'restore',
    summary: 'Restore a skill from the trash (by trash id, or the newest entry of a name)',
    load: async () => (await import('./restore.js')).restoreCommand,
  },
  {
    name: 'trash',
    summary: 'List deleted and replaced skills that can be restored',
    load: async () => (await import('./trash.js')).trashCommand,
  },
  {
    name: 'export',
    summary: "Put a library skill into an agent's user skills folder, as a copy or a link",
    load: async () => (await import('./export.js')).exportCommand,
  },
  {
    name: 'project',
    summary: 'Place library skills in a project folder for chosen agents, with a skills-lock.json (shows the plan; --apply writes)',
    load: async () => (await import('./project.js')).projectCommand,
  },
  {
    name: 'install',
    summary: "Restore a project's skills from its skills-lock.json (SkillDock's or the skills CLI's), like npm ci",
    load: async () => (await import('./install.js')).installCommand,
  },
  {
    name: 'deploy',
    summary: "Turn library skills on in agents' own skills folders (a link, or a copy)",
    load: async () => (await import('./deploy.js')).deployCommand,
  },
  {
    name: 'undeploy',
    summary: "Turn library skills off in agents' own skills folders",
    load: async () => (await import('./deploy.js')).undeployCommand,
  },
  {
    name: 'status',
    summary: "What is in every agent's skills folders: in sync, drifted, foreign, broken, read twice",
    load: async () => (await import('./deploy.js')).statusCommand,
  },
  {
    name: 'repair',
    summary: "Put agents' skills folders back as chosen (foreign entries and edited copies only when named)",
    load: async () => (await import('./deploy.js')).repairCommand,
  },
  {
    name: 'undo',
    summary: 'Undo one operation by its id (skilldock history), else the newest: import, delete, restore, adopt, export...',
    load: async () => (await import('./undo.js')).undoCommand,
  },
  {
    name: 'redo',
    summary: 'Redo an undone operation by its id, else the one undone last',
    load: async () => (await import('./undo.js')).redoCommand,
  },
  {
    name: 'history',
    summary: 'The journal: each operation that changed disk, newest first: its id, what it touched, whether it was undone',
    load: async () => (await import('./history.js')).historyCommand,
  },
  {
    name: 'doctor',
    summary: 'Find what a crash left behind (an interrupted operation, stale staging, incomplete trash entries); --repair puts it right',
    load: async () => (await import('./doctor.js')).doctorCommand,
  },
  {
    name: 'new',
    summary: 'Create a skill in the library from a template (plain, with scripts/, with references/)',
    load: async () => (await import('./new.js')).newCommand,
  },
  {
    name: 'add',
    summary: 'Add skills from a git repository, owner/repo shorthand, a tree URL or a local repository',
    load: async () => (await import('./add.js')).addCommand,
  },
  {
    name: 'check',
    summary: 'Check skills added from sources for upstream updates (exit 1 when updates exist)',
    load: async () => (await import('./check.js')).checkCommand,
  },
  {
    name: 'update',
    summary: 'Update skills from their sources, keeping local edits (three-way merge per file)',
    load: async () => (await import('./update.js')).updateCommand,
  },
  {
    name: 'pin',
    summary: 'Pin a skill from a source to a ref or commit (default: the installed commit); --off unpins',
    load: async () => (await import('./pin.js')).pinCommand,
  },
  {
    name: 'sync',
    summary: 'Sync the library, assistants and approvals through a git remote you own (setup, status, resolve)',
    load: async () => (await import('./sync.js')).syncCommand,
  },
];
