import type { ReactNode } from 'react';

/**
 * A heading drawn as Arco's Typography.Title draws it (`<hN class="arco-typography">`), without
 * Typography's code (edit, copy and ellipsis bring Input, Tooltip and Popover): page headers are in
 * the first script (issue 16).
 */
export function Title({ heading, className, children }: { heading: 4 | 5 | 6; className?: string; children: ReactNode }) {
  const Tag = `h${heading}` as const;
  return <Tag className={className ? `arco-typography ${className}` : 'arco-typography'}>{children}</Tag>;
}
