import { createService, type SkillDockService } from '../service.js';
import { SkillDockError } from '../errors.js';
import { commands } from './commands/index.js';
import { UsageError, type CliIO } from './types.js';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skilldock: manage Agent Skills for coding-agent CLIs',
    '',
    'Usage: skilldock <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `skilldock <command> --help` for its options. SKILLDOCK_HOME overrides ~/.skilldock.',
  ].join('\n');
}

export async function runCli(argv: string[], partial: Partial<CliIO> = {}): Promise<number> {
  let service: SkillDockService | undefined;
  const io: CliIO = {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    env: process.env,
    cwd: process.cwd(),
    service: () => (service ??= createService()),
    ...partial,
  };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.out('0.1.0');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`skilldock: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
        (err as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
        (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      io.err(`skilldock ${name}: ${(err as Error).message}\nUsage: ${command.usage}`);
      return 2;
    }
    if (err instanceof SkillDockError) {
      io.err(`skilldock ${name}: ${err.message}`);
      return err.code === 'bad-request' ? 2 : 1;
    }
    io.err(`skilldock ${name}: ${(err as Error)?.message ?? String(err)}`);
    return 1;
  } finally {
    if (service) await service.close();
  }
}
