import { useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Input, Modal, Tag } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { findEntry, useCatalog } from '../../stores/catalog-store';
import { useAssistants } from '../../stores/assistants-store';
import { errorText } from '../../stores/errors';
import { useSkill } from '../../stores/skill-store';
import { TID, rowId } from '../../testids';
import { ApproveGate } from '../../features/security/approve-gate';

const SHOWN = 200;

/** A skill the engine refused to attach until its scripts are approved (issue 6). */
interface NeedsApproval {
  skill: string;
  message: string;
}

function needsApproval(err: unknown): NeedsApproval | null {
  const e = err as { code?: string; message?: string; details?: { skill?: unknown } };
  return e?.code === 'refused' && typeof e.details?.skill === 'string' ? { skill: e.details.skill, message: errorText(err) } : null;
}

/** Search the catalog's effective skills (not shadowed copies) and attach several at once. */
export function SkillPicker({ visible, onClose, attached }: { visible: boolean; onClose(): void; attached: string[] }) {
  const { t } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const attach = useAssistants((s) => s.attach);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<Map<string, CatalogEntry>>(new Map());
  const [approval, setApproval] = useState<NeedsApproval | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useApprovedMeanwhile(approval, setApproval);

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
    setApproval(null);
    setError(null);
    onClose();
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    setApproval(null);
    const res = await attach([...picked.values()].map((e) => ({ name: e.name, rootId: e.provenance.rootId })));
    setBusy(false);
    if (res.ok && !res.waiting.length) return close();
    if (res.ok) {
      // The others are attached; the ones waiting for an approval stay picked, and the first is asked for.
      const waiting = new Set(res.waiting.map((w) => w.name));
      setPicked((m) => new Map([...m].filter(([, e]) => waiting.has(e.name))));
      const first = res.waiting[0];
      setApproval(needsApproval({ code: 'refused', msg: first.msg, message: first.name, details: { skill: first.name } }));
      return;
    }
    const na = needsApproval(res.error);
    if (na) setApproval(na);
    else setError(errorText(res.error));
  };

  const approveAndRetry = async (skill: string) => {
    const entry = [...picked.values()].find((e) => e.name === skill);
    try {
      await useSkill.getState().approveRef(entry ? { dir: entry.provenance.dir } : { name: skill });
    } catch (err) {
      setError(errorText(err));
      return;
    }
    await submit();
  };

  return (
    <Modal
      visible={visible}
      title={t('assistants.addSkills')}
      onCancel={close}
      okText={t('assistants.attachCount', { count: picked.size })}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ disabled: picked.size === 0, ...({ 'data-testid': TID.skillPickerConfirm } as object) }}
      onOk={submit}
    >
      <div data-testid={TID.skillPicker}>
        {error && <Alert type="error" className="page-alert" content={error} />}
        {approval && <ApprovalPrompt approval={approval} picked={picked} onApprove={() => approveAndRetry(approval.skill)} />}
        <Input
          allowClear
          value={query}
          onChange={setQuery}
          placeholder={t('skills.searchPlaceholder')}
          data-testid={TID.skillPickerSearch}
          autoFocus
        />
        <div className="picker-list">
          {candidates.slice(0, SHOWN).map((e) => (
            <PickerRow key={e.id} entry={e} picked={picked.has(e.id)} onToggle={() => toggle(e)} />
          ))}
          {candidates.length > SHOWN && <div className="muted">{t('assistants.refine', { count: candidates.length - SHOWN })}</div>}
          {candidates.length === 0 && <div className="muted">{t('skills.empty')}</div>}
        </div>
      </div>
    </Modal>
  );
}

/**
 * Approved while reviewing (in the drawer over the picker): the warning no longer holds, and the
 * checked skills are still here to attach.
 */
function useApprovedMeanwhile(approval: NeedsApproval | null, setApproval: Dispatch<SetStateAction<NeedsApproval | null>>): void {
  const catalog = useCatalog((s) => s.catalog);
  const trustRev = useCatalog((s) => s.trustRev);
  const seenRev = useRef(trustRev);
  useEffect(() => {
    if (trustRev === seenRev.current || !approval) return;
    seenRev.current = trustRev;
    const entry = findEntry(catalog, { name: approval.skill });
    let live = true;
    useSkill
      .getState()
      .trustOf(entry ? { dir: entry.provenance.dir } : { name: approval.skill })
      .then((trust) => live && trust.status === 'approved' && setApproval((a) => (a?.skill === approval.skill ? null : a)))
      .catch(() => undefined); // the warning stays; attaching again asks the engine
    return () => {
      live = false;
    };
  }, [trustRev]); // eslint-disable-line react-hooks/exhaustive-deps
}

interface PromptProps {
  approval: NeedsApproval;
  picked: Map<string, CatalogEntry>;
  onApprove(): Promise<void>;
}

/**
 * Why the skill waits, and the approval gate: the scan's findings are shown before approving; with a
 * high one, approving needs a tick first (ApproveGate). Reviewing opens the drawer over the picker.
 */
function ApprovalPrompt({ approval, picked, onApprove }: PromptProps) {
  const { t } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const openSkill = useCatalog((s) => s.open);
  const approvalEntry = [...picked.values()].find((e) => e.name === approval.skill);
  return (
    <Alert
      type="warning"
      className="page-alert"
      data-testid={TID.skillPickerApproval}
      content={
        <div>
          <div>{approval.message}</div>
          <ApproveGate
            entryId={approvalEntry?.id}
            label={t('assistants.approveAndAttach', { skill: approval.skill })}
            testId={TID.skillPickerApprove}
            onApprove={onApprove}
            extra={
              <Button
                size="small"
                data-testid={TID.skillPickerReview}
                onClick={() => {
                  // Reviewed in place: the drawer opens over the picker, which keeps its checks.
                  const entry = approvalEntry ?? findEntry(catalog, { name: approval.skill });
                  if (entry) openSkill(entry.id, 'security', true);
                }}
              >
                {t('assistants.reviewSkill', { skill: approval.skill })}
              </Button>
            }
          />
        </div>
      }
    />
  );
}

/** One candidate skill, ticked or not. */
function PickerRow({ entry: e, picked, onToggle }: { entry: CatalogEntry; picked: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  return (
    <div
      role="checkbox"
      aria-checked={picked}
      tabIndex={0}
      className={`row clickable${picked ? ' selected' : ''}`}
      data-testid={rowId(TID.skillPickerRow, e.name)}
      onClick={onToggle}
      onKeyDown={(ev) => (ev.key === ' ' || ev.key === 'Enter') && onToggle()}
    >
      <Checkbox checked={picked} className="no-pointer" />
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
  );
}
