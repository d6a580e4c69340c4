import type { ReactNode } from 'react';
import { Title } from './title';

/**
 * The row at the top of a page or section: a title, what belongs beside it (a count, a tag), and
 * the actions pushed to the right.
 */
export function PageHeader({
  title,
  heading = 4,
  before,
  children,
  actions,
}: {
  title: ReactNode;
  heading?: 4 | 5 | 6;
  /** Left of the title (a Back button). */
  before?: ReactNode;
  /** Right after the title. */
  children?: ReactNode;
  /** At the right end. */
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      {before}
      <Title heading={heading} className="page-title">
        {title}
      </Title>
      {children}
      {actions !== undefined && (
        <>
          <div className="grow" />
          {actions}
        </>
      )}
    </div>
  );
}
