import type { ReactNode } from 'react';
import { Tree } from '@arco-design/web-react';
import { TID, rowId } from '../testids';

interface Node {
  key: string;
  title: string;
  children?: Node[];
}

/** Turns sorted relative paths (`scripts/x.sh`) into a folder tree, folders first. */
export function toTree(files: readonly string[]): Node[] {
  const root: Node = { key: '', title: '', children: [] };
  for (const file of files) {
    const parts = file.split('/').filter(Boolean);
    let node = root;
    parts.forEach((part, i) => {
      const key = parts.slice(0, i + 1).join('/');
      const leaf = i === parts.length - 1;
      node.children ??= [];
      let child = node.children.find((c) => c.key === key);
      if (!child) {
        child = leaf ? { key, title: part } : { key, title: part, children: [] };
        node.children.push(child);
      } else if (!leaf) {
        child.children ??= [];
      }
      node = child;
    });
  }
  const sort = (nodes: Node[]): Node[] =>
    nodes
      .sort((a, b) => Number(!a.children) - Number(!b.children) || a.title.localeCompare(b.title))
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  return sort(root.children ?? []);
}

/** Files (not folders) carry a test id, and are selectable when `onSelect` is given. */
function withTitles(nodes: Node[]): Array<Omit<Node, 'title' | 'children'> & { title: ReactNode; children?: unknown[] }> {
  return nodes.map((n) =>
    n.children
      ? { ...n, selectable: false, children: withTitles(n.children) }
      : {
          ...n,
          title: (
            <span className="file-tree-name" title={n.key} data-testid={rowId(TID.skillFile, n.key)}>
              {n.title}
            </span>
          ),
        },
  );
}

export function FileTree({
  files,
  selected,
  onSelect,
}: {
  files: readonly string[];
  selected?: string | null;
  onSelect?(path: string): void;
}) {
  const data = toTree(['SKILL.md', ...files.filter((f) => f !== 'SKILL.md')]);
  return (
    <div data-testid={TID.skillFileTree} className="file-tree">
      <Tree
        treeData={withTitles(data) as never}
        defaultExpandedKeys={data.filter((n) => n.children).map((n) => n.key)}
        blockNode
        size="small"
        selectedKeys={selected ? [selected] : []}
        onSelect={(keys) => keys[0] && onSelect?.(keys[0])}
      />
    </div>
  );
}
