/**
 * Service factories by name, and the broker of a process: the roles its
 * config selects, with the node metadata crawler nodes advertise. Factories
 * load on demand, so an api node or the admin CLI never loads the browser stack.
 */
import { ServiceBroker, type BrokerOptions, type ServiceSchema } from 'moleculer';
import { brokerOptions } from '../moleculer.config.js';
import type { Config, ServiceName } from './shared/config.js';
import type { Clock } from './shared/clock.js';

type Factory = (config: Config, clock?: Clock) => ServiceSchema;

const FACTORIES: Record<ServiceName, () => Promise<Factory>> = {
  api: async () => (await import('./api/api.service.js')).apiService,
  tasks: async () => (await import('./tasks/tasks.service.js')).tasksService,
  users: async () => (await import('./users/users.service.js')).usersService,
  scheduler: async () => (await import('./scheduler/scheduler.service.js')).schedulerService,
  crawler: async () => (await import('../crawler/crawler.service.js')).crawlerService,
  callbacks: async () => (await import('./callbacks/callbacks.service.js')).callbacksService,
  proxies: async () => (await import('./proxies/proxies.service.js')).proxiesService,
  accounts: async () => (await import('./accounts/accounts.service.js')).accountsService,
  monitors: async () => (await import('./monitors/monitors.service.js')).monitorsService,
};

/** `extra` overrides broker options (benchmarks add middlewares or change the advert). */
export async function createBroker(
  config: Config,
  names: readonly ServiceName[] = config.services,
  clock?: Clock,
  extra: Partial<BrokerOptions> = {},
): Promise<ServiceBroker> {
  const metadata = names.includes('crawler')
    ? { crawler: (await import('../crawler/advert.js')).crawlerAdvert(config) }
    : {};
  const base = brokerOptions(config, metadata);
  // Extra middlewares come after the project's own (the stop order stays first).
  const middlewares = [...(base.middlewares ?? []), ...(extra.middlewares ?? [])];
  const broker = new ServiceBroker({ ...base, ...extra, middlewares });
  for (const name of names) broker.createService((await FACTORIES[name]())(config, clock));
  return broker;
}
