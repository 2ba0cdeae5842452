/**
 * The `callbacks` service: signed webhooks with persistent retry timers. A
 * task's completion callback (spec 6) is a delivery of kind `task`; other
 * services queue deliveries of their own kinds (a monitor's alert or digest)
 * with `callbacks.deliver`, sent by the same worker on the same schedule. Any
 * number of instances may run; deliveries live in MongoDB and are claimed
 * atomically, so each attempt is sent once and a restart carries on where the
 * schedule was. Wiring only: see intake.ts, worker.ts.
 */
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import type { TaskFinished } from '../shared/contracts/events.js';
import {
  TASK_DELIVERY,
  type DeliverAnswer,
  type DeliveryOfRequest,
  type DefaultCallbacksAnswer,
  type DefaultCallbacksRequest,
  type FinishedPageRequest,
  type TaskBrief,
  type TaskBriefRequest,
  type WebhookSecretAnswer,
  type WebhookSecretRequest,
} from '../shared/contracts/callbacks.js';
import { AppError } from '../shared/errors.js';
import type { TaskResultView } from '../shared/task-views.js';
import { Sender } from './deliver.js';
import { Intake, type IntakeSources } from './intake.js';
import { deliveryModel } from './models.js';
import { attemptLeaseMs, maxAttempts } from '../shared/webhooks/schedule.js';
import { AddressPolicy } from '../shared/webhooks/ssrf.js';
import { DeliveryStore } from './store.js';
import { deliveryView } from './view.js';
import { checkDeliverRequest, checkSubject } from './request.js';
import { Worker, type WorkerSources } from './worker.js';
import { EvidenceStore } from '../shared/evidence.js';

export function callbacksService(config: Config, clock: Clock = systemClock): ServiceSchema {
  const c = config.callbacks;
  let deliveries: DeliveryStore;
  const policy = new AddressPolicy(c.allowCidrs);
  const viewOf = async (task: TaskBrief) => {
    const subject = { kind: TASK_DELIVERY, subjectId: task.taskId };
    const delivery = await deliveries.find(subject.kind, subject.subjectId);
    const addressNow = delivery ? null : ((await intake.addressOf(task)) ?? null);
    return deliveryView(subject, delivery, addressNow, maxAttempts(c.retryDelaysMs));
  };
  let intake: Intake;
  let worker: Worker | undefined;
  const timers: NodeJS.Timeout[] = [];
  /** The first sweep, once started (see `sweepFirst`). */
  let firstSweep: Promise<unknown> | undefined;
  let tasksAreThere = () => false;

  return {
    name: 'callbacks',

    actions: {
      /**
       * Queues a delivery of another kind than a task callback (params in
       * contracts/callbacks.ts), due at once; the same kind and subject again
       * queues nothing, so a caller may retry after a lost answer.
       */
      deliver: {
        async handler(ctx: Context<unknown>): Promise<DeliverAnswer> {
          const d = await checkDeliverRequest(ctx.params, policy);
          const created = await deliveries.create({ ...d, taskStatus: null }, clock.now());
          if (created) void worker?.pump().catch((err: unknown) => this.logger.warn(err));
          return { kind: d.kind, subjectId: d.subjectId, created };
        },
      },
      /** The state and attempts of one of the caller's deliveries of any kind. */
      deliveryOf: {
        params: { userId: 'number', kind: 'any', subjectId: 'any' },
        async handler(ctx: Context<DeliveryOfRequest>) {
          const subject = checkSubject(ctx.params);
          const delivery = await deliveries.find(subject.kind, subject.subjectId);
          if (delivery?.userId !== ctx.params.userId) {
            throw AppError.notFound(`delivery ${subject.kind} ${subject.subjectId}`);
          }
          return deliveryView(subject, delivery, null, maxAttempts(c.retryDelaysMs));
        },
      },
      /** The delivery state and attempts of one of the caller's tasks. */
      status: {
        params: { userId: 'number', taskId: 'any' },
        async handler(ctx: Context<{ userId: number; taskId: unknown }>) {
          return viewOf(await ctx.call<TaskBrief, TaskBriefRequest>('tasks.brief', ctx.params));
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
          return viewOf(
            await ctx.call<TaskBrief, TaskBriefRequest>('tasks.brief', {
              taskId: ctx.params.taskId,
            }),
          );
        },
      },
    },

    events: {
      // The first sweep waits for the tasks service: in one process it registers once it has
      // started (maybe after this service), in a cluster whenever its node comes.
      '$services.changed'() {
        this.sweepFirst();
      },
      '$broker.started'() {
        this.sweepFirst();
      },
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
      tasksAreThere = () => this.broker.registry.actions.isAvailable('tasks.finishedPage');
      deliveries = new DeliveryStore(deliveryModel(connection));
      const sources = ownerSources(this.broker);
      intake = new Intake(sources, deliveries, clock);
      await deliveries.ensureIndexes();
      worker = new Worker(
        deliveries,
        sources,
        new EvidenceStore(connection),
        new Sender({
          connectTimeoutMs: c.connectTimeoutMs,
          readTimeoutMs: c.readTimeoutMs,
          policy,
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
      every(c.sweepMs, 'sweep', async () => {
        if (!tasksAreThere()) return;
        await intake.sweep();
        await deliveries.purgeFinished(clock.now() - config.retentionDays * 86_400_000);
      });
      this.sweepFirst();
    },

    methods: {
      /**
       * Once, as soon as the tasks service answers: the tasks that finished while no
       * callbacks node ran get their deliveries (the periodic sweep repeats it).
       */
      sweepFirst() {
        if (firstSweep || !worker || !tasksAreThere()) return;
        firstSweep = intake
          .sweep()
          .catch((err: unknown) => this.logger.warn('callbacks sweep:', err));
      },
      /** Stop order, step 1 (services/shared/stop-order.ts): no more polls or sweeps. */
      quiesce() {
        for (const t of timers.splice(0)) clearInterval(t);
      },
    },

    async stopped() {
      for (const t of timers.splice(0)) clearInterval(t);
      await firstSweep;
      const w = worker;
      worker = undefined;
      if (!w) return;
      await w.stop();
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}

/** Tasks and users through their own services' actions: a task that is gone reads as undefined. */
function ownerSources(broker: ServiceBroker): IntakeSources & WorkerSources {
  const unlessGone = <T>(call: Promise<T>): Promise<T | undefined> =>
    call.catch((err: unknown) => {
      if ((err as { code?: unknown }).code === 404) return undefined;
      throw err;
    });
  return {
    task: (taskId) =>
      unlessGone(broker.call<TaskBrief, TaskBriefRequest>('tasks.brief', { taskId })),
    finishedPage: (request) =>
      broker.call<TaskBrief[], FinishedPageRequest>('tasks.finishedPage', request),
    result: (userId, taskId) =>
      unlessGone(
        broker.call<TaskResultView, { userId: number; taskId: string }>('tasks.result', {
          userId,
          taskId,
        }),
      ),
    defaultCallbacks: async (userIds) =>
      new Map(
        await broker.call<DefaultCallbacksAnswer, DefaultCallbacksRequest>(
          'users.defaultCallbacks',
          { userIds },
        ),
      ),
    webhookSecret: async (userId) =>
      (
        await broker.call<WebhookSecretAnswer, WebhookSecretRequest>('users.webhookSecret', {
          userId,
        })
      ).secret,
  };
}
