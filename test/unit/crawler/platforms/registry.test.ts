import t from 'tap';
import { driverFor } from '../../../../crawler/platforms/index.js';
import { PLATFORMS } from '../../../../services/shared/platforms.js';

t.test('every API channel of the catalogue has its driver', async (t) => {
  for (const p of PLATFORMS.filter((p) => p.channels.api)) {
    t.type(driverFor(p.name, 'api')?.api?.ask, 'function', p.name);
  }
});

t.test('a driver is found only for a channel the definition lists', async (t) => {
  for (const def of PLATFORMS) {
    const driver = driverFor(def.name);
    if (driver?.api) t.ok(def.channels.api, `${def.name} api is catalogued`);
    if (driver?.web) t.ok(def.channels.web, `${def.name} web is catalogued`);
  }
  t.equal(
    driverFor('sandbox-cn', 'web'),
    undefined,
    'the sandbox driver has a web side, sandbox-cn not',
  );
  t.equal(driverFor('sandbox-cn')?.web, undefined);
  t.equal(driverFor('sandbox-web', 'api'), undefined);
  t.type(driverFor('sandbox-web', 'web')?.web?.ask, 'function');
  t.type(driverFor('sandbox', 'web')?.web?.ask, 'function');
  t.equal(driverFor('claude', 'web'), undefined, 'no consumer-site driver for claude');
  t.type(driverFor('chatgpt', 'web')?.web?.ask, 'function', 'chatgpt drives its site');
  t.equal(driverFor('openai'), undefined, 'canonical names only');
  t.equal(driverFor('nope'), undefined);
});
