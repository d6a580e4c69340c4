import { useTranslation } from 'react-i18next';
import type { SkillFilter } from './skill-filter';

export type Facets = Omit<SkillFilter, 'query'>;

/**
 * What the filters look like, drawn with Arco's Select and Switch classes, while their code (Arco
 * Select and Switch) is fetched after the first paint (issue 16). Not interactive: it is replaced a
 * moment later by the real FilterBar showing the same values.
 */
export function FilterBarStandIn({ facets }: { facets: Facets }) {
  const { t } = useTranslation();
  const select = (value: string | null, placeholder: string) => (
    <div className="arco-select arco-select-single arco-select-size-default toolbar-select" aria-hidden="true">
      <div className="arco-select-view">
        <span className="arco-select-view-selector">
          <span className={value === null ? 'arco-select-view-value filter-stand-in-placeholder' : 'arco-select-view-value'}>
            {value ?? placeholder}
          </span>
        </span>
        <div className="arco-select-suffix">
          <div className="arco-select-arrow-icon">
            <svg fill="none" stroke="currentColor" strokeWidth="4" viewBox="0 0 48 48" className="arco-icon arco-icon-down">
              <path d="M39.6 17.443 24.043 33 8.487 17.443" />
            </svg>
          </div>
        </div>
      </div>
    </div>
  );
  return (
    <>
      {select(facets.rootId, t('skills.filterRoot'))}
      {select(facets.agent, t('skills.filterAgent'))}
      {select(t(`skills.problems.${facets.problems}`), '')}
      <label className="toolbar-switch" aria-hidden="true">
        <span className={`arco-switch arco-switch-small arco-switch-type-circle${facets.shadowedOnly ? ' arco-switch-checked' : ''}`}>
          <span className="arco-switch-dot" />
        </span>
        <span>{t('skills.shadowedOnly')}</span>
      </label>
    </>
  );
}
