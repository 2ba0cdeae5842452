/** Service factories by name, so a process runs the roles its config selects. */
import type { ServiceBroker, ServiceSchema } from 'moleculer';
import type { Config, ServiceName } from './shared/config.js';
import type { Clock } from './shared/clock.js';
import { apiService } from './api/api.service.js';
import { tasksService } from './tasks/tasks.service.js';
import { usersService } from './users/users.service.js';

const FACTORIES: Record<ServiceName, (config: Config, clock?: Clock) => ServiceSchema> = {
  api: apiService,
  tasks: tasksService,
  users: usersService,
};

export function createServices(
  broker: ServiceBroker,
  config: Config,
  names: readonly ServiceName[] = config.services,
  clock?: Clock,
): void {
  for (const name of names) broker.createService(FACTORIES[name](config, clock));
}
