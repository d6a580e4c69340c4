import type { ReactNode } from 'react';

// The shell's page list, drawn with Arco's own menu classes (same look, same theme variables) but
// without Arco's Menu, whose code brings Layout, ResizeBox, Dropdown, Trigger and Tooltip into the
// first script (issue 16: a light first paint). Keyboard: Tab to an item, Enter or Space opens it.

export interface NavItem<K extends string> {
  key: K;
  label: ReactNode;
  testId: string;
}

export function NavMenu<K extends string>({
  items,
  selected,
  onSelect,
  testId,
}: {
  items: readonly NavItem<K>[];
  selected: K;
  onSelect(key: K): void;
  testId: string;
}) {
  return (
    <div role="menu" data-testid={testId} className="arco-menu arco-menu-light arco-menu-vertical">
      <div className="arco-menu-inner">
        {items.map((item) => (
          <div
            key={item.key}
            tabIndex={0}
            role="menuitem"
            aria-current={item.key === selected ? 'page' : undefined}
            className={item.key === selected ? 'arco-menu-item arco-menu-selected' : 'arco-menu-item'}
            data-testid={item.testId}
            onClick={() => onSelect(item.key)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect(item.key);
              }
            }}
          >
            {item.label}
          </div>
        ))}
      </div>
    </div>
  );
}
