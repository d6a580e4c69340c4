import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getMcpServed } from './served.js';
import { announce, retire, running } from './status.js';

type Keys = keyof typeof import('../contract/mcp.js').mcpMethods;

export function mcpHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const served = () => getMcpServed(ctx);
  return {
    mcpServedSkills: (scope) => served().servedSet(scope),
    mcpReadFile: ({ skillPath, path, ...scope }) => served().read(scope, skillPath, path),
    mcpStatus: async () => ({ servers: running(ctx) }),
    mcpAnnounce: async (info) => announce(ctx, info),
    mcpRetire: async ({ id }) => ({ removed: retire(ctx, id) }),
  };
}
