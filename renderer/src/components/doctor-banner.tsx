import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@arco-design/web-react';
import type { Api } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from '../stores/errors';
import { TID } from '../testids';

type Found = { op: string; time: string } | null;
type DoctorReport = Awaited<ReturnType<Api['doctor']>>;

/**
 * Said at start (and whenever the engine rolls one back): an operation a crash interrupted. Repair
 * rolls it back so the library is as it was before it; nothing else is touched.
 */
export function DoctorBanner() {
  const { t, i18n } = useTranslation();
  const [found, setFound] = useState<Found>(null);
  const [rolled, setRolled] = useState<{ op: string; undone: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [corrupt, setCorrupt] = useState<DoctorReport['corruptFiles']>([]);
  useEffect(() => {
    let live = true;
    client()
      .api.doctor({})
      .then((r) => {
        if (!live) return;
        setFound(r.interrupted ? { op: r.interrupted.op, time: r.interrupted.time } : null);
        setCorrupt(r.corruptFiles);
      })
      .catch(() => undefined);
    const off = client().onEvent((e) => {
      if (e.type === 'operation-rolled-back') {
        setFound(null);
        setRolled({ op: e.op, undone: e.undone });
      }
    });
    return () => {
      live = false;
      off();
    };
  }, []);
  const when = (iso: string) => (iso ? new Date(iso).toLocaleString(i18n.language) : '');
  const repair = async () => {
    try {
      const r = await client().api.doctor({ repair: true });
      setFound(null);
      if (r.rolledBack) setRolled({ op: r.rolledBack.op, undone: r.rolledBack.undone });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const damaged = corrupt.map((c) => (
    <Alert
      key={c.file}
      className="page-alert"
      type="warning"
      closable
      onClose={() => setCorrupt((all) => all.filter((x) => x.file !== c.file))}
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
        onClose={() => setRolled(null)}
        data-testid={TID.doctorDone}
        content={t('doctor.rolledBack', { op: t(`doctor.op.${rolled.op}`, { defaultValue: rolled.op }), count: rolled.undone })}
      />,
    );
  if (error) return withDamaged(<Alert className="page-alert" type="error" content={error} />);
  return damaged.length ? <>{damaged}</> : null;

  function withDamaged(first: ReactElement) {
    return (
      <>
        {first}
        {damaged}
      </>
    );
  }
}
