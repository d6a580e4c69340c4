import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Select, Switch, Tag } from '@arco-design/web-react';
import type { CatalogKind } from '../../../../src/contract/index';
import { useDiscover } from '../../stores/discover-store';
import { engineText } from '../../i18n/engine-text';
import { formatWhen } from '../../i18n/format-date';
import { TID, rowId } from '../../testids';

const KINDS: CatalogKind[] = ['git', 'marketplace', 'well-known', 'search-api'];

/** The subscribed catalogs: turn each on or off, refresh, remove, add one. */
export function CatalogsPanel() {
  const { t, i18n } = useTranslation();
  const { catalogs, busy, lastRefresh, setEnabled, refresh, removeCatalog, addCatalog } = useDiscover();
  const [url, setUrl] = useState('');
  const [kind, setKind] = useState<CatalogKind>('git');
  return (
    <section className="discover-catalogs" data-testid={TID.discoverCatalogs} aria-label={t('discover.catalogs.title')}>
      <div className="discover-catalog">
        <strong>{t('discover.catalogs.title')}</strong>
        <Button size="small" loading={Boolean(busy.refresh)} onClick={() => void refresh()} data-testid={TID.discoverRefreshAll}>
          {t('discover.catalogs.refreshAll')}
        </Button>
      </div>
      {(catalogs ?? []).map((c) => {
        const last = lastRefresh.find((r) => r.id === c.id);
        return (
          <div key={c.id} className="discover-catalog" data-testid={rowId(TID.discoverCatalog, c.id)}>
            <Switch
              size="small"
              checked={c.enabled}
              aria-label={t('discover.catalogs.enabled', { id: c.id })}
              loading={Boolean(busy[`enable:${c.id}`])}
              onChange={(on) => void setEnabled(c.id, on)}
              data-testid={rowId(TID.discoverCatalogSwitch, c.id)}
            />
            <strong>{c.id}</strong>
            <Tag size="small">{t(`discover.kind.${c.kind}`)}</Tag>
            <span className="discover-catalog-url">{c.url}</span>
            <span className="muted">
              {c.kind === 'search-api'
                ? t('discover.catalogs.live')
                : c.refreshedAt
                  ? t('discover.catalogs.indexed', { count: c.skills, time: formatWhen(c.refreshedAt, i18n.language) })
                  : t('discover.catalogs.never')}
            </span>
            {c.error && <span className="muted">{engineText(t, c.error.msg, c.error.message)}</span>}
            {last && <span className="muted">{engineText(t, last.msg, last.message)}</span>}
            {c.kind !== 'search-api' && (
              <Button
                size="small"
                disabled={!c.enabled}
                loading={Boolean(busy[`refresh:${c.id}`])}
                onClick={() => void refresh([c.id])}
                data-testid={rowId(TID.discoverCatalogRefresh, c.id)}
              >
                {t('discover.catalogs.refresh')}
              </Button>
            )}
            <Button
              size="small"
              status="danger"
              loading={Boolean(busy[`remove:${c.id}`])}
              onClick={() => void removeCatalog(c.id)}
              data-testid={rowId(TID.discoverCatalogRemove, c.id)}
            >
              {t('discover.catalogs.remove')}
            </Button>
          </div>
        );
      })}
      <div className="discover-catalog-add">
        <Select
          style={{ width: 200 }}
          value={kind}
          onChange={(v: CatalogKind) => setKind(v)}
          options={KINDS.map((k) => ({ label: t(`discover.kind.${k}`), value: k }))}
          data-testid={TID.discoverCatalogKind}
          aria-label={t('discover.catalogs.kind')}
        />
        <Input
          value={url}
          onChange={setUrl}
          placeholder={t('discover.catalogs.urlPlaceholder')}
          aria-label={t('discover.catalogs.urlPlaceholder')}
          data-testid={TID.discoverCatalogUrl}
        />
        <Button
          type="primary"
          disabled={!url.trim()}
          loading={Boolean(busy.add)}
          onClick={() => void addCatalog(url.trim(), kind).then(() => setUrl(''))}
          data-testid={TID.discoverCatalogAdd}
        >
          {t('discover.catalogs.add')}
        </Button>
      </div>
    </section>
  );
}
