import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getDiscover } from './service.js';
import { getCatalogSkills } from './catalog-skills.js';

type Keys = keyof (typeof import('../contract/discover.js'))['discoverMethods'];

export function discoverHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const d = () => getDiscover(ctx);
  const k = () => getCatalogSkills(ctx);
  return {
    listCatalogs: async () => ({ catalogs: d().list() }),
    addCatalog: async (input) => ({ catalog: d().add(input) }),
    removeCatalog: (input) => d().remove(input.id),
    setCatalogEnabled: async (input) => ({ catalog: d().setEnabled(input.id, input.enabled) }),
    refreshCatalogs: async (input) => ({ results: await d().refresh(input.ids, input.force) }),
    searchSkills: (input) => k().search(input),
    previewCatalogSkill: (input) => k().preview(input.catalog, input.path, input.repo),
    installCatalogSkill: (input) => k().install(input),
  };
}
