import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getSettings } from './settings.js';

export function settingsHandlers(ctx: ServiceContext): Pick<Api, 'getSettings' | 'updateSettings'> {
  const settings = getSettings(ctx);
  return {
    getSettings: async () => settings.get(),
    updateSettings: async (patch) => settings.update(patch),
  };
}
