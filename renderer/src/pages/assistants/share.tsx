import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Modal, Tag } from '@arco-design/web-react';
import type { ConflictChoice, MethodOutput } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { errorText } from '../../stores/errors';
import { useAssistants } from '../../stores/assistants-store';
import { copyNameIn, takenIn } from './copy-name';
import { TID, rowId } from '../../testids';

// An assistant as one file: export writes what `skilldock assistant export` writes (persona,
// agent, each skill with its source and commit, or local-only); import recreates it, adding
// missing skills from their sources at those commits.

type Imported = MethodOutput<'importAssistant'>;

/** A file name from an assistant's name: letters and digits of any script kept, the rest dashes. */
function fileNameOf(name: string): string {
  const base =
    name
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'assistant';
  return `${base}.skilldock-assistant.json`;
}

export function ExportAssistantButton({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button
        loading={busy}
        data-testid={TID.assistantExport}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            const data = await useAssistants.getState().exportDoc(id);
            const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
            const a = document.createElement('a');
            a.href = url;
            a.download = fileNameOf(name);
            a.click();
            setTimeout(() => URL.revokeObjectURL(url), 10_000);
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('assistants.share.export')}
      </Button>
      {error && (
        <Modal visible title={t('assistants.share.exportFailed')} onCancel={() => setError(null)} footer={null}>
          <Alert type="error" content={error} />
        </Modal>
      )}
    </>
  );
}

const STATUS_COLOR: Record<Imported['skills'][number]['status'], string> = {
  added: 'green',
  present: 'gray',
  conflict: 'orange',
  missing: 'red',
  failed: 'red',
};

/** The name an import was refused under because an assistant (or starter) already has it. */
function nameTaken(err: unknown): string | null {
  const msg = (err as { code?: string; msg?: { key?: string; params?: { name?: unknown } } } | null) ?? null;
  if (msg?.code !== 'conflict') return null;
  const key = msg.msg?.key;
  if (key !== 'assistants.name-taken' && key !== 'assistants.name-taken-starter') return null;
  return typeof msg.msg?.params?.name === 'string' ? msg.msg.params.name : null;
}

/** The import's state and steps: read the file, import, and the answers to a taken name, conflicts or no skills. */
function useAssistantImport() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [data, setData] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Imported | null>(null);
  // The file's assistant name is taken: the name it was refused under, and the new one offered.
  const [taken, setTaken] = useState<{ name: string; newName: string } | null>(null);
  const [asName, setAsName] = useState<string | undefined>(undefined);

  const [choice, setChoice] = useState<ConflictChoice | undefined>(undefined);
  const run = async (doc: unknown, onConflict?: ConflictChoice, name = asName, allowEmpty?: boolean) => {
    setBusy(true);
    setError(null);
    setChoice(onConflict);
    try {
      setResult(await useAssistants.getState().importDoc(doc, onConflict, name, allowEmpty));
      setTaken(null);
    } catch (err) {
      const clash = nameTaken(err);
      if (clash !== null) {
        // Offer to keep both, as the CLI's --name does: a free name in the user's language, editable.
        setTaken({ name: clash, newName: copyNameIn(t, clash, takenIn(useAssistants.getState().list)) });
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      setData(null);
      setError(t('assistants.share.notJson', { file: file.name }));
      return;
    }
    setData(doc);
    await run(doc);
  };

  const conflicts = result?.skills.some((s) => s.status === 'conflict') ?? false;
  // Every skill it lists failed: the engine did not create it and the user chooses.
  const empty = result?.refused !== undefined && !conflicts;
  const open = result !== null || error !== null || taken !== null;
  const close = () => {
    setResult(null);
    setError(null);
    setData(null);
    setTaken(null);
    setAsName(undefined);
  };
  const importAs = () => {
    if (!taken) return;
    const name = taken.newName.trim();
    setAsName(name);
    void run(data, undefined, name);
  };
  return { t, input, data, busy, error, result, taken, setTaken, asName, choice, run, pick, conflicts, empty, open, close, importAs };
}

export function ImportAssistantButton() {
  const { t, input, data, busy, error, result, taken, setTaken, asName, choice, run, pick, conflicts, empty, open, close, importAs } =
    useAssistantImport();
  return (
    <>
      <Button size="small" type="text" loading={busy} data-testid={TID.assistantImport} onClick={() => input.current?.click()}>
        {t('assistants.share.import')}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid={TID.assistantImportInput}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ''; // the same file can be chosen again
          void pick(file);
        }}
      />
      {open && (
        <Modal
          visible
          title={t('assistants.share.importTitle')}
          onCancel={close}
          footer={
            taken && !result ? (
              <>
                <Button onClick={close}>{t('common.cancel')}</Button>
                <Button
                  type="primary"
                  disabled={!taken.newName.trim()}
                  loading={busy}
                  onClick={importAs}
                  data-testid={TID.assistantImportAs}
                >
                  {t('assistants.share.importAs', { name: taken.newName.trim() })}
                </Button>
              </>
            ) : conflicts && data !== null ? (
              <>
                <Button onClick={() => void run(data, 'skip')} loading={busy} data-testid={TID.assistantImportSkip}>
                  {t('import.skip')}
                </Button>
                <Button onClick={() => void run(data, 'keep-both')} loading={busy} data-testid={TID.assistantImportKeepBoth}>
                  {t('import.keepBoth')}
                </Button>
                <Button type="primary" status="warning" onClick={() => void run(data, 'replace')} loading={busy}>
                  {t('import.replace')}
                </Button>
              </>
            ) : empty && data !== null ? (
              <>
                <Button onClick={close}>{t('common.close')}</Button>
                <Button
                  type="primary"
                  onClick={() => void run(data, choice, asName, true)}
                  loading={busy}
                  data-testid={TID.assistantImportAllowEmpty}
                >
                  {t('assistants.share.createEmpty')}
                </Button>
              </>
            ) : (
              <Button type="primary" onClick={close}>
                {t('common.close')}
              </Button>
            )
          }
        >
          <div data-testid={TID.assistantImportResult}>
            {error && <Alert type="error" content={error} />}
            {taken && !result && (
              <>
                <Alert type="warning" content={t('assistants.share.nameTaken', { name: taken.name })} style={{ marginBottom: 8 }} />
                <Input
                  value={taken.newName}
                  onChange={(v) => setTaken({ ...taken, newName: v })}
                  onPressEnter={importAs}
                  aria-label={t('assistants.share.newName')}
                  placeholder={t('assistants.share.newName')}
                  data-testid={TID.assistantImportNewName}
                />
              </>
            )}
            {result && (
              <>
                <p>
                  {result.assistantId
                    ? t('assistants.share.created', { name: result.name })
                    : t('assistants.share.notCreated', { name: result.name })}
                </p>
                {conflicts && <Alert type="warning" content={t('assistants.share.conflicts')} style={{ marginBottom: 8 }} />}
                {empty && result.refused && (
                  <Alert
                    type="warning"
                    content={engineText(t, result.refused, '')}
                    style={{ marginBottom: 8 }}
                    data-testid={TID.assistantImportEmpty}
                  />
                )}
                <div className="rows">
                  {result.skills.map((s) => (
                    <div key={s.name} className="row" data-testid={rowId(TID.assistantImportRow, s.name)} data-status={s.status}>
                      <div className="row-title">
                        {s.name} <Tag color={STATUS_COLOR[s.status]}>{t(`assistants.share.status.${s.status}`)}</Tag>
                      </div>
                      {s.msg && <div className="muted small">{engineText(t, s.msg, s.message ?? '')}</div>}
                    </div>
                  ))}
                </div>
              </>
            )}
          </div>
        </Modal>
      )}
    </>
  );
}
