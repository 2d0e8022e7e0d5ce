/** Groups of near-duplicates from the component labels `findClusters` gives. */

/**
 * The groups of two or more positions sharing a label, each ascending; largest first, then by
 * first member. `labels[i]` is the smallest position of i's component, as `findClusters` gives
 * it, so a group's first member is its label.
 */
export function groupLabels(labels: Uint32Array): number[][] {
  const members = new Map<number, number[]>();
  labels.forEach((label, position) => {
    const list = members.get(label);
    if (list === undefined) members.set(label, [position]);
    else list.push(position);
  });
  return [...members.values()].filter((list) => list.length > 1).sort((x, y) => y.length - x.length || x[0]! - y[0]!);
}
