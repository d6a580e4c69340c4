import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@arco-design/web-react';
import { useDoctor } from '../stores/doctor-store';
import { TID } from '../testids';
import { formatWhen } from '../i18n/format-date';
import { engineText } from '../i18n/engine-text';

/**
 * Said at start (and whenever the engine rolls one back): an operation a crash interrupted. Repair
 * rolls it back so the library is as it was before it, keeps one that had finished (its journal
 * entry written) and finishes an undo; nothing else is touched. Also the journal's damage warning.
 */
export function DoctorBanner() {
  const { t, i18n } = useTranslation();
  const found = useDoctor((s) => s.interrupted);
  const rolled = useDoctor((s) => s.rolled);
  const error = useDoctor((s) => s.error);
  const corrupt = useDoctor((s) => s.corrupt);
  const journalDamage = useDoctor((s) => s.journalDamage);

  useEffect(() => {
    void useDoctor.getState().load();
  }, []);

  const when = (iso: string) => formatWhen(iso, i18n.language);
  const repair = () => useDoctor.getState().repair();

  const journal = journalDamage ? (
    <Alert
      key="journal"
      className="page-alert"
      type="warning"
      closable
      onClose={() => useDoctor.getState().dismissJournalDamage()}
      data-testid={TID.doctorJournal}
      content={engineText(t, journalDamage, journalDamage.key)}
    />
  ) : null;
  const damaged = corrupt.map((c) => (
    <Alert
      key={c.file}
      className="page-alert"
      type="warning"
      closable
      onClose={() => useDoctor.getState().dismissCorrupt(c.file)}
      data-testid={TID.doctorCorrupt}
      title={t('errors.storeCorruptTitle')}
      content={t(c.recoveredFrom === 'backup' ? 'errors.storeCorrupt' : 'errors.storeCorruptDefaults', {
        file: c.file,
        movedTo: c.movedTo,
        reason: t(`errors.corruptReason.${c.reasonCode}`),
      })}
    />
  ));
  if (found)
    return withDamaged(
      <Alert
        className="page-alert"
        type="warning"
        data-testid={TID.doctorBanner}
        content={t('doctor.interrupted', { op: t(`doctor.op.${found.op}`, { defaultValue: found.op }), time: when(found.time) })}
        action={
          <Button size="small" type="primary" onClick={() => void repair()} data-testid={TID.doctorRepair}>
            {t('doctor.repair')}
          </Button>
        }
      />,
    );
  if (rolled)
    return withDamaged(
      <Alert
        className="page-alert"
        type="success"
        closable
        onClose={() => useDoctor.getState().dismissRolled()}
        data-testid={TID.doctorDone}
        content={t(
          rolled.outcome === 'committed' ? 'doctor.kept' : rolled.outcome === 'finished' ? 'doctor.finished' : 'doctor.rolledBack',
          {
            op: t(`doctor.op.${rolled.op}`, { defaultValue: rolled.op }),
            count: rolled.undone,
          },
        )}
      />,
    );
  if (error) return withDamaged(<Alert className="page-alert" type="error" content={error} />);
  return damaged.length || journal ? (
    <>
      {journal}
      {damaged}
    </>
  ) : null;

  function withDamaged(first: ReactElement) {
    return (
      <>
        {first}
        {journal}
        {damaged}
      </>
    );
  }
}
