import { Button } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { client } from '../client-port';

/** "Browse…" for a folder: the desktop window's native picker; nothing in the browser UI, which has none. */
export function BrowseButton({ onPick, testId }: { onPick: (dir: string) => void; testId?: string }) {
  const { t } = useTranslation();
  const c = client();
  if (!c.pickFolder) return null;
  return (
    <Button
      data-testid={testId}
      onClick={async () => {
        const dir = await c.pickFolder!();
        if (dir) onPick(dir);
      }}
    >
      {t('common.browse')}
    </Button>
  );
}
