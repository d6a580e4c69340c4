import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spin } from '@arco-design/web-react';
import { Title } from '../../components/title';
import { TID } from '../../testids';
import './first-run.css';

// The adopt list is the Library page's (one flow, one place to fix it); loaded only on a first run.
const AdoptTab = lazy(() => import('../library/adopt-tab').then((m) => ({ default: m.AdoptTab })));

/**
 * The Skills page while the library is empty (issue 12, first run): how skills get in (drop them
 * anywhere on the window, or the Import menu) and the skills already in the agents' folders, to adopt.
 */
export function FirstRun() {
  const { t } = useTranslation();
  return (
    <section className="first-run" data-testid={TID.skillsFirstRun}>
      <Title heading={5} className="first-run-title">
        {t('skills.firstRun.title')}
      </Title>
      <p className="first-run-drop" data-testid={TID.skillsFirstRunDrop}>
        {t('skills.firstRun.drop')}
      </p>
      <div className="first-run-adopt">
        <div className="subheading">{t('skills.firstRun.adoptTitle')}</div>
        <div className="muted small">{t('skills.firstRun.adoptHint')}</div>
        <Suspense fallback={<Spin />}>
          {/* The library store reads the adoptable list again when the library changes (another window adopted or imported). */}
          <AdoptTab />
        </Suspense>
      </div>
    </section>
  );
}
