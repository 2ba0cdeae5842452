/**
 * Service factories by name, and the broker of a process: the roles its
 * config selects, with the node metadata crawler nodes advertise.
 */
import { ServiceBroker, type ServiceSchema } from 'moleculer';
import { brokerOptions } from '../moleculer.config.js';
import { crawlerAdvert } from '../crawler/advert.js';
import { crawlerService } from '../crawler/crawler.service.js';
import type { Config, ServiceName } from './shared/config.js';
import type { Clock } from './shared/clock.js';
import { apiService } from './api/api.service.js';
import { schedulerService } from './scheduler/scheduler.service.js';
import { tasksService } from './tasks/tasks.service.js';
import { usersService } from './users/users.service.js';

const FACTORIES: Record<ServiceName, (config: Config, clock?: Clock) => ServiceSchema> = {
  api: apiService,
  tasks: tasksService,
  users: usersService,
  scheduler: schedulerService,
  crawler: crawlerService,
};

export function createBroker(
  config: Config,
  names: readonly ServiceName[] = config.services,
  clock?: Clock,
): ServiceBroker {
  const metadata = names.includes('crawler') ? { crawler: crawlerAdvert(config) } : {};
  const broker = new ServiceBroker(brokerOptions(config, metadata));
  for (const name of names) broker.createService(FACTORIES[name](config, clock));
  return broker;
}
