import path from 'node:path';
import type { ServiceContext } from '../service-context.js';
import { allAgents, expandHome } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { libraryDir } from '../library/trash.js';
import { isInside } from '../base/extpath.js';
import type { DeployScope } from './targets.js';

// The user scope: every agent in the registry (custom ones included) with the user folders it
// reads. SkillDock writes only inside the user's home (`/etc/codex/skills` is read, never written).

export const USER_SCOPE = 'user';

export function userScope(ctx: ServiceContext): DeployScope {
  const home = path.resolve(ctx.paths.userHome);
  const agents = allAgents(ctx.paths.resourcesDir, getSettings(ctx).get().customAgents).map((a) => {
    const reads = a.userDirs.map((d) => path.resolve(expandHome(d, home)));
    return { id: a.id, name: a.name, reads, targets: reads.filter((d) => isInside(d, home) && d !== home), sameName: a.sameName };
  });
  return { key: USER_SCOPE, agents, libraryDir: libraryDir(ctx) };
}
