/**
 * The work not yet done, for the soak's minute line: sub tasks waiting and
 * sub tasks in work per node. A backlog that climbs says the cluster (or the
 * machine under it) is not keeping up, and the memory and open files of every
 * process then follow the backlog, not a leak.
 */
import type mongoose from 'mongoose';

export async function backlogText(db: mongoose.Connection): Promise<string> {
  const subs = db.collection('subtasks');
  const pending = await subs.countDocuments({ status: 'pending' });
  const inWork = await subs
    .find({ status: 'processing' }, { projection: { leaseNode: 1 } })
    .toArray();
  const perNode = new Map<string, number>();
  for (const s of inWork) {
    const node = String(s.leaseNode ?? '-');
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const nodes = [...perNode].sort(([a], [b]) => a.localeCompare(b));
  return (
    `backlog ${pending} waiting, ${inWork.length} in work` +
    (nodes.length ? ` (${nodes.map(([n, c]) => `${n} ${c}`).join(', ')})` : '')
  );
}
