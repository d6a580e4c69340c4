import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Input, Modal, Tag } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { useCatalog } from '../../stores/catalog-store';
import { useAssistants } from '../../stores/assistants-store';
import { TID, rowId } from '../../testids';

const SHOWN = 200;

/** Search the catalog's effective skills (not shadowed copies) and attach several at once. */
export function SkillPicker({ visible, onClose, attached }: { visible: boolean; onClose(): void; attached: string[] }) {
  const { t } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const attach = useAssistants((s) => s.attach);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<Map<string, CatalogEntry>>(new Map());

  const candidates = useMemo(() => {
    const taken = new Set(attached);
    const q = query.trim().toLowerCase();
    return (catalog?.entries ?? []).filter(
      (e) => !e.shadowedBy && !taken.has(e.name) && (!q || e.name.toLowerCase().includes(q) || e.description.toLowerCase().includes(q)),
    );
  }, [catalog, attached, query]);

  const toggle = (e: CatalogEntry) =>
    setPicked((m) => {
      const next = new Map(m);
      if (next.has(e.id)) next.delete(e.id);
      else next.set(e.id, e);
      return next;
    });

  const close = () => {
    setPicked(new Map());
    setQuery('');
    onClose();
  };

  return (
    <Modal
      visible={visible}
      title={t('assistants.addSkills')}
      onCancel={close}
      okText={t('assistants.attachCount', { count: picked.size })}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: picked.size === 0, ...({ 'data-testid': TID.skillPickerConfirm } as object) }}
      onOk={async () => {
        const ok = await attach([...picked.values()].map((e) => ({ name: e.name, rootId: e.provenance.rootId })));
        if (ok) close();
      }}
    >
      <div data-testid={TID.skillPicker}>
        <Input allowClear value={query} onChange={setQuery} placeholder={t('skills.searchPlaceholder')} data-testid={TID.skillPickerSearch} autoFocus />
        <div className="picker-list">
          {candidates.slice(0, SHOWN).map((e) => (
            <div
              key={e.id}
              role="checkbox"
              aria-checked={picked.has(e.id)}
              tabIndex={0}
              className={`row clickable${picked.has(e.id) ? ' selected' : ''}`}
              data-testid={rowId(TID.skillPickerRow, e.name)}
              onClick={() => toggle(e)}
              onKeyDown={(ev) => (ev.key === ' ' || ev.key === 'Enter') && toggle(e)}
            >
              <Checkbox checked={picked.has(e.id)} className="no-pointer" />
              <div className="row-main">
                <div className="row-title">
                  {e.name} <Tag size="small">{t(`roots.${e.provenance.rootKind}`)}</Tag>
                  {e.counts.errors > 0 && (
                    <Tag size="small" color="red">
                      {t('skills.badge.errors', { count: e.counts.errors })}
                    </Tag>
                  )}
                </div>
                <div className="muted ellipsis">{e.description}</div>
              </div>
            </div>
          ))}
          {candidates.length > SHOWN && <div className="muted">{t('assistants.refine', { count: candidates.length - SHOWN })}</div>}
          {candidates.length === 0 && <div className="muted">{t('skills.empty')}</div>}
        </div>
      </div>
    </Modal>
  );
}
