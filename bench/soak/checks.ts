/**
 * What must hold at the end of a soak, read from the database, the sandbox's
 * request log and the webhook receiver: every task final with counters equal
 * to its sub tasks' states and nothing lost, no sub task answered twice unless
 * a kill explains it, every callback delivered exactly once. Each check is a
 * line with PASS or FAIL.
 */
import type mongoose from 'mongoose';
import { FINAL_SUBTASK_STATUSES } from '../../services/shared/contracts/status.js';
import type { SandboxRequestRecord } from '../../sandbox/server.js';
import type { Receiver } from '../webhook-receiver.js';
import type { Submitted } from './client.js';
import { doubles, type Asked } from './figures.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const FINAL_SUB = new Set<string>(FINAL_SUBTASK_STATUSES);
const FINAL_TASK = new Set(['completed', 'partial_completed', 'failed']);

export async function checkTasks(
  db: mongoose.Connection,
  submitted: readonly Submitted[],
): Promise<Check[]> {
  const ids = submitted.map((s) => s.taskId);
  const tasks = await db
    .collection('tasks')
    .find({ _id: { $in: ids } } as never)
    .toArray();
  const subs = await db
    .collection('subtasks')
    .find({ taskId: { $in: ids } }, { projection: { taskId: 1, status: 1, leaseToken: 1 } })
    .toArray();
  const subsOf = new Map<string, { status: string; leaseToken: unknown }[]>();
  for (const s of subs) {
    const list = subsOf.get(String(s.taskId)) ?? [];
    list.push({ status: String(s.status), leaseToken: s.leaseToken });
    subsOf.set(String(s.taskId), list);
  }
  const byId = new Map(tasks.map((t) => [String(t._id), t]));
  const lost: string[] = [];
  const open: string[] = [];
  const counters: string[] = [];
  let items = 0;
  for (const s of submitted) {
    items += s.items;
    const task = byId.get(s.taskId);
    const list = subsOf.get(s.taskId) ?? [];
    if (!task || list.length !== s.items || task.totalItems !== s.items) {
      lost.push(`${s.tag}: ${list.length}/${s.items} sub tasks`);
      continue;
    }
    const notFinal = list.filter((x) => !FINAL_SUB.has(x.status) || x.leaseToken != null);
    if (!FINAL_TASK.has(String(task.status)) || notFinal.length > 0)
      open.push(`${s.tag} ${String(task.status)} (${notFinal.length} sub tasks open)`);
    const completed = list.filter((x) => x.status === 'completed').length;
    const failed = list.filter((x) => x.status !== 'completed' && FINAL_SUB.has(x.status)).length;
    if (task.completedItems !== completed || task.failedItems !== failed)
      counters.push(
        `${s.tag}: counters ${String(task.completedItems)}/${String(task.failedItems)}, ` +
          `sub tasks ${completed}/${failed}`,
      );
  }
  const statuses = new Map<string, number>();
  for (const x of subs) statuses.set(String(x.status), (statuses.get(String(x.status)) ?? 0) + 1);
  const counts = [...statuses].map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    check('nothing lost', lost, `${submitted.length} tasks, ${items} sub tasks stored (${counts})`),
    check('every task final, no lease left', open, `${submitted.length} final`),
    check('counters equal the sub tasks', counters, 'completed and failed counts exact'),
  ];
}

export async function checkDoubles(
  db: mongoose.Connection,
  requests: readonly SandboxRequestRecord[],
  kills: readonly number[],
  windowMs: number,
): Promise<Check> {
  // Every sub task stored (the database is the soak's own), a task whose submit was retried included.
  const subs = await db
    .collection('subtasks')
    .find({}, { projection: { prompt: 1, platform: 1, attempts: 1 } })
    .toArray();
  const asked = new Map<string, Asked>();
  for (const d of subs) {
    const key = `${d.platform === 'sandbox-web' ? 'web' : 'api'} ${String(d.prompt)}`;
    asked.set(key, { key, answeredAt: [], requests: 0, attempts: Number(d.attempts) });
  }
  for (const r of requests) {
    if (!r.prompt?.startsWith('soak ') || r.channel === 'page') continue;
    const key = `${r.channel} ${r.prompt}`;
    const a = asked.get(key) ?? { key, answeredAt: [], requests: 0, attempts: 0 };
    asked.set(key, a);
    a.requests++;
    if (r.status === 200 && r.failure === undefined) a.answeredAt.push(r.at);
  }
  const d = doubles([...asked.values()], kills, windowMs);
  return check(
    'no sub task answered twice but for a kill or a counted re-lease',
    d.unexplained,
    `${d.twice} sub tasks answered twice: ${d.byKill} asked of the killed node before its kill, ` +
      `${d.reLeased} asked again as a counted attempt after their lease ran out; ` +
      'every platform request is a counted attempt',
  );
}

export async function checkCallbacks(
  db: mongoose.Connection,
  submitted: readonly Submitted[],
  receiver: Receiver,
): Promise<Check> {
  const deliveries = await db
    .collection('deliveries')
    .find({ _id: { $in: submitted.map((s) => s.taskId) } } as never)
    .toArray();
  const byId = new Map(deliveries.map((d) => [String(d._id), d]));
  const wrong: string[] = [];
  let retried = 0;
  for (const s of submitted) {
    const d = byId.get(s.taskId);
    const got = receiver.requestsTo(s.callbackPath);
    const ids = new Set(got.map((r) => r.headers['webhook-id']));
    const ok200 = ((d?.attempts ?? []) as { httpStatus: number | null }[]).filter(
      (a) => a.httpStatus === 200,
    ).length;
    if (s.refusedFirst) retried++;
    const want = s.refusedFirst ? 2 : 1;
    if (d?.status !== 'SUCCEEDED' || got.length !== want || ids.size !== 1 || ok200 !== 1)
      wrong.push(
        `${s.tag}: ${String(d?.status)}, ${got.length} requests (want ${want}), ` +
          `${ids.size} webhook ids, ${ok200} successful attempts`,
      );
  }
  return check(
    'every callback delivered once',
    wrong,
    `${submitted.length} callbacks, ${retried} of them after a refused first delivery`,
  );
}

function check(name: string, problems: readonly string[], detail: string): Check {
  return {
    name,
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? detail
        : `${problems.length} wrong: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`,
  };
}
