import { APP_CLI_FLAG } from '../src/workspaces/index.js';

// The installed desktop app has no `skilldock` command of its own and its fuses forbid running
// Electron as Node, yet hooks (the write guard) must call the CLI. So the app's executable is the
// CLI too: `SkillDock --cli <command> ...` runs the command and exits, with no window, no
// single-instance lock and no display (the hook passes --ozone-platform=headless).

/** The CLI's arguments when the app was started with the CLI flag, else null. */
export function cliArguments(argv: readonly string[]): string[] | null {
  // argv[0] is the executable; in development `electron .` puts the app folder at argv[1].
  const at = argv.indexOf(APP_CLI_FLAG, 1);
  return at === -1 ? null : argv.slice(at + 1);
}
