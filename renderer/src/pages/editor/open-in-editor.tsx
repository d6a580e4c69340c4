import { useTranslation } from 'react-i18next';
import { Button } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { useCatalog } from '../../stores/catalog-store';
import { useNav } from '../../stores/nav-store';
import { TID } from '../../testids';

/** From the skill drawer to the editor: a library skill by its folder name, any other read-only by entry id. */
export function OpenInEditor({ entry }: { entry: CatalogEntry }) {
  const { t } = useTranslation();
  const edit = useNav((n) => n.edit);
  const library = entry.provenance.rootKind === 'library' && !entry.provenance.linked;
  return (
    <Button
      size="mini"
      data-testid={TID.skillOpenEditor}
      onClick={() => {
        useCatalog.getState().open(null);
        edit(entry.provenance.rootKind === 'library' ? entry.dirName : entry.id);
      }}
    >
      {library ? t('library.edit') : t('editor.openReadOnly')}
    </Button>
  );
}
