/**
 * The `callbacks` service: completion webhooks with persistent retry timers
 * (spec 6). Any number of instances may run; deliveries live in MongoDB and
 * are claimed atomically, so each attempt is sent once and a restart carries
 * on where the schedule was. Wiring only: see intake.ts, worker.ts.
 */
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import type { TaskFinished } from '../shared/contracts/events.js';
import { taskModels, type TaskDoc } from '../shared/subtasks/models.js';
import { checkTaskId } from '../shared/requests/task-queries.js';
import { TaskStore } from '../tasks/store.js';
import { userModels } from '../users/models.js';
import { UserStore } from '../users/store.js';
import { Sender } from './deliver.js';
import { Intake } from './intake.js';
import { deliveryModel } from './models.js';
import { attemptLeaseMs, maxAttempts } from '../shared/webhooks/schedule.js';
import { AddressPolicy } from '../shared/webhooks/ssrf.js';
import { DeliveryStore } from './store.js';
import { deliveryView } from './view.js';
import { Worker } from './worker.js';
import { EvidenceStore } from '../shared/evidence.js';

export function callbacksService(config: Config, clock: Clock = systemClock): ServiceSchema {
  const c = config.callbacks;
  let deliveries: DeliveryStore;
  let tasks: TaskStore;
  const viewOf = async (task: TaskDoc) => {
    const delivery = await deliveries.find(task._id);
    const addressNow = delivery ? null : ((await intake.addressOf(task)) ?? null);
    return deliveryView(task._id, delivery, addressNow, maxAttempts(c.retryDelaysMs));
  };
  let intake: Intake;
  let worker: Worker | undefined;
  const timers: NodeJS.Timeout[] = [];

  return {
    name: 'callbacks',

    actions: {
      /** The delivery state and attempts of one of the caller's tasks. */
      status: {
        params: { userId: 'number', taskId: 'any' },
        async handler(ctx: Context<{ userId: number; taskId: unknown }>) {
          return viewOf(await tasks.findTask(ctx.params.userId, checkTaskId(ctx.params.taskId)));
        },
      },
      /** Attempts by outcome and deliveries by state (the api's /metrics). */
      figures: {
        async handler() {
          return deliveries.figures();
        },
      },
      /** The same view of any user's task, for operators (the api checks the role). */
      statusOfAnyTask: {
        params: { taskId: 'any' },
        async handler(ctx: Context<{ taskId: unknown }>) {
          return viewOf(await tasks.findAnyTask(checkTaskId(ctx.params.taskId)));
        },
      },
    },

    events: {
      'task.finished': {
        async handler(ctx: Context<TaskFinished>) {
          try {
            if (await intake.fromEvent(ctx.params.taskId)) await worker?.pump();
          } catch (err) {
            // The sweep creates the delivery later.
            this.logger.warn(`callback intake for task ${ctx.params.taskId}:`, err);
          }
        },
      },
    },

    async started() {
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      deliveries = new DeliveryStore(deliveryModel(connection));
      tasks = new TaskStore(taskModels(connection), clock);
      const users = new UserStore(userModels(connection), clock);
      intake = new Intake(taskModels(connection), users, deliveries, clock);
      await deliveries.ensureIndexes();
      worker = new Worker(
        deliveries,
        tasks,
        users,
        new EvidenceStore(connection),
        new Sender({
          connectTimeoutMs: c.connectTimeoutMs,
          readTimeoutMs: c.readTimeoutMs,
          policy: new AddressPolicy(c.allowCidrs),
        }),
        clock,
        {
          node: this.broker.nodeID,
          retryDelaysMs: c.retryDelaysMs,
          leaseMs: attemptLeaseMs(c.connectTimeoutMs, c.readTimeoutMs),
          screenshotBase: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
        },
        this.logger,
      );
      const every = (ms: number, name: string, job: () => Promise<unknown>) => {
        let running = false;
        timers.push(
          setInterval(() => {
            if (running) return;
            running = true;
            job()
              .catch((err: unknown) => this.logger.warn(`callbacks ${name}:`, err))
              .finally(() => (running = false));
          }, ms),
        );
      };
      every(c.pollMs, 'poll', () => worker!.pump());
      every(c.sweepMs, 'sweep', () => intake.sweep());
      await intake.sweep().catch((err: unknown) => this.logger.warn('callbacks sweep:', err));
    },

    async stopped() {
      for (const t of timers.splice(0)) clearInterval(t);
      const w = worker;
      worker = undefined;
      if (!w) return;
      await w.stop();
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
