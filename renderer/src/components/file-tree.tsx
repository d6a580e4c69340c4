import { Tree } from '@arco-design/web-react';
import { TID } from '../testids';

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

export function FileTree({ files }: { files: readonly string[] }) {
  const data = toTree(['SKILL.md', ...files.filter((f) => f !== 'SKILL.md')]);
  return (
    <div data-testid={TID.skillFileTree} className="file-tree">
      <Tree treeData={data} defaultExpandedKeys={data.filter((n) => n.children).map((n) => n.key)} blockNode size="small" />
    </div>
  );
}
