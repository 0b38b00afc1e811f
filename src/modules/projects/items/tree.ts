import type { ItemRow } from "./repository.js";

export interface TreeNode<T> {
  node: T;
  children: TreeNode<T>[];
}

/** Nests rows by parent_id, keeping the order the rows come in (siblings by position). */
export function nest<T extends Pick<ItemRow, "id" | "parentId">>(rows: T[]): TreeNode<T>[] {
  const byId = new Map<string, TreeNode<T>>(rows.map((r) => [r.id, { node: r, children: [] }]));
  const roots: TreeNode<T>[] = [];
  for (const row of rows) {
    const entry = byId.get(row.id) as TreeNode<T>;
    const parent = row.parentId ? byId.get(row.parentId) : undefined;
    if (parent) parent.children.push(entry);
    else roots.push(entry);
  }
  return roots;
}

/** Depth-first, parents before children: the order a bulk insert needs. */
export function parentsFirst<T>(roots: TreeNode<T>[]): T[] {
  const out: T[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const entry = stack.pop() as TreeNode<T>;
    out.push(entry.node);
    for (let i = entry.children.length - 1; i >= 0; i--) stack.push(entry.children[i]);
  }
  return out;
}

/** Number of levels of a forest (0 when empty). */
export function treeHeight<T>(roots: TreeNode<T>[]): number {
  let height = 0;
  const stack = roots.map((r) => ({ entry: r, depth: 1 }));
  while (stack.length > 0) {
    const { entry, depth } = stack.pop() as { entry: TreeNode<T>; depth: number };
    height = Math.max(height, depth);
    for (const child of entry.children) stack.push({ entry: child, depth: depth + 1 });
  }
  return height;
}
