import { Button } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { desktop } from '../stores/desktop';

/** "Browse…" for a folder: the desktop window's native picker; nothing in the browser UI, which has none. */
export function BrowseButton({ onPick, testId }: { onPick: (dir: string) => void; testId?: string }) {
  const { t } = useTranslation();
  if (!desktop.canPickFolder()) return null;
  return (
    <Button
      data-testid={testId}
      onClick={async () => {
        const dir = await desktop.pickFolder();
        if (dir) onPick(dir);
      }}
    >
      {t('common.browse')}
    </Button>
  );
}
