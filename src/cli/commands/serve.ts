import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type CliCommandModule } from '../types.js';
import { untilSignal } from '../signals.js';

export const serveCommand: CliCommandModule = {
  usage: 'skilldock serve [--port N] [--open] [--json]',
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        open: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got "${values.port}"`);

    const service = io.service();
    const { findRendererDir, openInBrowser, startServer } = await import('../../server/index.js');
    const rendererDir = findRendererDir(io.env);
    // Not <home>/staging: the library clears that dir for its own archive extraction on every import.
    const server = await startServer({ service, port, rendererDir, stagingDir: path.join(service.paths.home, 'uploads') });

    if (values.json) {
      io.out(JSON.stringify({ url: server.url, origin: server.origin, port: server.port, token: server.token, rendererDir }));
    } else {
      io.out(`SkillDock browser UI: ${server.url}`);
      io.out('Listening on 127.0.0.1 only; the token in the URL is required. Press Ctrl+C to stop.');
      if (!rendererDir) io.err('Note: the UI is not built yet (run `npm run build:renderer`); the API works.');
    }
    if (values.open && !(await openInBrowser(server.url))) {
      io.err('Could not open a browser here; open the URL above yourself.');
    }

    await untilSignal();
    await server.close();
    return 0;
  },
};
