import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input } from '@arco-design/web-react';
import { TID, rowId } from '../../testids';
import { FORM_FIELDS, readFrontmatter, setField, setMetadata, type FormField } from './frontmatter-edit';

/** The frontmatter as a form over the raw text: every change is a splice of the one value it touches. */
export function FrontmatterForm({ text, readOnly, onChange }: { text: string; readOnly: boolean; onChange(text: string): void }) {
  const { t } = useTranslation();
  const view = useMemo(() => readFrontmatter(text), [text]);
  if (!view) return <Alert type="warning" content={t('editor.formUnreadable')} data-testid={TID.frontmatterForm} />;
  const meta = view.metadata ?? [];
  const setMeta = (next: Array<[string, string]>) => onChange(setMetadata(text, next));
  return (
    <div className="form-stack" data-testid={TID.frontmatterForm}>
      {FORM_FIELDS.map((f: FormField) => {
        const locked = view.locked.includes(f);
        const props = {
          value: view.values[f] ?? '',
          disabled: readOnly || locked,
          onChange: (v: string) => onChange(setField(text, f, v)),
          'data-testid': rowId(TID.frontmatterField, f),
        };
        return (
          <div key={f}>
            <label className="form-label">
              <code>{f}</code> {locked && <span className="muted small">{t('editor.formRawOnly')}</span>}
            </label>
            {f === 'description' ? <Input.TextArea {...props} autoSize={{ minRows: 2, maxRows: 8 }} /> : <Input size="small" {...props} />}
          </div>
        );
      })}
      <div>
        <label className="form-label">
          <code>metadata</code> {view.metadataLocked && <span className="muted small">{t('editor.formRawOnly')}</span>}
        </label>
        {meta.map(([k, v], i) => (
          <div key={i} className="meta-row">
            <Input
              size="small"
              value={k}
              disabled={readOnly || view.metadataLocked}
              onChange={(nk) => setMeta(meta.map((e, j) => (j === i ? [nk, e[1]] : e)))}
              data-testid={rowId(TID.frontmatterField, `metadata-key-${i}`)}
            />
            <Input
              size="small"
              value={v}
              disabled={readOnly || view.metadataLocked}
              onChange={(nv) => setMeta(meta.map((e, j) => (j === i ? [e[0], nv] : e)))}
              data-testid={rowId(TID.frontmatterField, `metadata-value-${i}`)}
            />
            <Button size="mini" disabled={readOnly || view.metadataLocked} onClick={() => setMeta(meta.filter((_, j) => j !== i))}>
              {t('common.remove')}
            </Button>
          </div>
        ))}
        {!readOnly && !view.metadataLocked && (
          <Button
            size="mini"
            onClick={() => setMeta([...meta, [`key${meta.length + 1}`, '']])}
            data-testid={rowId(TID.frontmatterField, 'metadata-add')}
          >
            {t('common.add')}
          </Button>
        )}
      </div>
    </div>
  );
}
