import { describe, expect, it } from 'vitest';
import { cliArguments } from './cli-mode';
import { APP_EXECUTABLE_ENV, findCli, guardCommand } from '../src/workspaces/write-guard';

describe("the desktop app's executable as the CLI", () => {
  it('takes what follows --cli, packaged or from a checkout, and nothing otherwise', () => {
    expect(cliArguments(['/opt/SkillDock/skilldock', '--cli', 'policy', 'check-write', '--hook'])).toEqual([
      'policy',
      'check-write',
      '--hook',
    ]);
    expect(cliArguments(['/opt/SkillDock/skilldock', '--ozone-platform=headless', '--cli', '--version'])).toEqual(['--version']);
    expect(cliArguments(['/usr/bin/electron', '.', '--cli', 'list', '--json'])).toEqual(['list', '--json']);
    expect(cliArguments(['/opt/SkillDock/skilldock'])).toBeNull();
    expect(cliArguments(['/opt/SkillDock/skilldock', '--no-sandbox'])).toBeNull();
    // the executable's own path is never read as the flag
    expect(cliArguments(['--cli'])).toBeNull();
  });

  it('packaged, the write guard hook calls the app itself, headless, with the CLI flag', () => {
    const cli = findCli('/opt/SkillDock/resources', { [APP_EXECUTABLE_ENV]: '/opt/Skill Dock/skilldock' });
    expect(cli).toEqual({ node: '/opt/Skill Dock/skilldock', leading: ['--ozone-platform=headless'], script: '--cli', env: {} });
    expect(guardCommand(cli!, { home: '/h/.skilldock', userHome: '/h', conversationId: 'c1' })).toBe(
      "SKILLDOCK_HOME=/h/.skilldock SKILLDOCK_USER_HOME=/h '/opt/Skill Dock/skilldock' --ozone-platform=headless --cli policy check-write --hook --conversation c1",
    );
    // a CLI script named explicitly still wins (tests, development)
    expect(findCli('/x', { [APP_EXECUTABLE_ENV]: '/opt/a', SKILLDOCK_CLI_SCRIPT: '/nonexistent/cli.js' })).toBeNull();
  });
});
