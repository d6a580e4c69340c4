import { Badge } from '@arco-design/web-react';
import { useSources } from '../../stores/sources-store';
import { TID } from '../../testids';

/** How many skills have an update waiting, after the last check (nothing before one). */
export function UpdatesBadge() {
  const updates = useSources((s) => s.updates);
  if (updates === 0) return null;
  return <Badge className="nav-badge" count={updates} dotStyle={{ boxShadow: 'none' }} data-testid={TID.updatesBadge} />;
}
