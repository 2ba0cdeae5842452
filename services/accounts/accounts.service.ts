/**
 * The `accounts` service: web-channel identities for the scheduler (claim,
 * usable), the tasks service (coverage), crawler nodes (checkout, release)
 * and operators (add, import, list, setState, remove, storeState, readState,
 * hold). State lives in MongoDB, so any number of instances may run. Wiring
 * only: see operations.ts.
 */
import type { Context, ServiceSchema } from 'moleculer';
import type {
  CheckoutRequest,
  ClaimRequest,
  ReleaseRequest,
} from '../shared/contracts/accounts.js';
import { HUMAN_KINDS } from '../shared/contracts/accounts.js';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { ScreenshotStore } from '../shared/screenshots.js';
import { accountModel } from './models.js';
import { Accounts, type StateChange } from './operations.js';
import type { NewAccount } from './validate.js';
import { pacingTable, type PacingTable } from './pacing.js';
import { AccountStore } from './store.js';

const text = { type: 'string', min: 1, max: 200 } as const;
const optionalRegion = { type: 'string', optional: true, nullable: true, max: 6 } as const;
const verdict = {
  type: 'object',
  props: {
    state: { type: 'enum', values: ['healthy', 'cooling', 'needs_human'] },
    untilMs: { type: 'number', optional: true },
    reason: { type: 'string', optional: true },
    kind: { type: 'enum', values: [...HUMAN_KINDS], optional: true },
    screenshotPng: { type: 'string', optional: true },
  },
} as const;

export function accountsService(
  config: Config,
  clock: Clock = systemClock,
  pacing: PacingTable = pacingTable(config),
  random: () => number = Math.random,
): ServiceSchema {
  let accounts: Accounts | undefined;
  const ready = () => {
    if (!accounts) throw new Error('accounts service is not started');
    return accounts;
  };

  return {
    name: 'accounts',

    actions: {
      claim: {
        params: {
          platform: text,
          regionCode: { type: 'string', nullable: true },
          holder: text,
          ports: { type: 'array', items: 'string' },
          avoid: { type: 'array', items: 'string', optional: true },
        },
        handler: (ctx: Context<ClaimRequest>) => ready().claim(ctx.params),
      },
      checkout: {
        params: { id: text, holder: text },
        handler: (ctx: Context<CheckoutRequest>) => ready().checkout(ctx.params),
      },
      release: {
        params: {
          id: text,
          holder: text,
          verdict,
          storageState: { type: 'object', optional: true },
          prompted: 'boolean',
        },
        handler: (ctx: Context<ReleaseRequest>) => ready().release(ctx.params),
      },
      usable: {
        handler: () => ready().usable(),
      },
      /** What the tasks service tells submitters: where web work can find an account at all. */
      coverage: {
        handler: () => ready().coverage(),
      },
      add: {
        params: {
          platform: text,
          label: text,
          regionCode: optionalRegion,
          storageState: { type: 'object', optional: true },
        },
        handler: (ctx: Context<NewAccount>) => ready().add(ctx.params),
      },
      import: {
        params: { platform: text, label: text, regionCode: optionalRegion, storageState: 'object' },
        handler: (ctx: Context<NewAccount & { storageState: unknown }>) =>
          ready().import(ctx.params),
      },
      labels: {
        params: { ids: { type: 'array', items: 'string', max: 1000 } },
        handler: (ctx: Context<{ ids: string[] }>) => ready().labels(ctx.params.ids),
      },
      list: {
        params: { platform: { type: 'string', optional: true } },
        handler: (ctx: Context<{ platform?: string }>) => ready().list(ctx.params.platform),
      },
      setState: {
        params: {
          id: text,
          state: { type: 'enum', values: ['healthy', 'disabled', 'needs_human'] },
          reason: { type: 'string', optional: true, max: 500 },
          kind: { type: 'enum', values: [...HUMAN_KINDS], optional: true },
          screenshotPng: { type: 'string', optional: true },
        },
        handler: (ctx: Context<StateChange>) => ready().setState(ctx.params),
      },
      remove: {
        params: { id: text },
        handler: (ctx: Context<{ id: string }>) => ready().remove(ctx.params.id),
      },
      storeState: {
        params: { id: text, storageState: 'object' },
        handler: (ctx: Context<{ id: string; storageState: unknown }>) =>
          ready().storeState(ctx.params.id, ctx.params.storageState),
      },
      /** Operators only (`driver-check`): holds the named account, whatever its pacing, and checks it out. */
      hold: {
        params: { id: text, holder: text },
        handler: (ctx: Context<CheckoutRequest>) => ready().hold(ctx.params),
      },
      /** Operators only (`account check`): the decrypted login, without holding the account. */
      readState: {
        params: { id: text },
        handler: (ctx: Context<{ id: string }>) => ready().readState(ctx.params.id),
      },
    },

    async started() {
      if (accounts) return;
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      const store = new AccountStore(accountModel(connection));
      const screenshots = new ScreenshotStore(connection);
      await store.ensureIndexes();
      await screenshots.ensureIndexes();
      accounts = new Accounts({
        store,
        screenshots,
        clock,
        pacing,
        key: config.accounts.key,
        holdMs: config.accounts.holdMs,
        gapJitter: config.accounts.gapJitter,
        random,
        screenshotBase: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
      });
    },

    async stopped() {
      if (!accounts) return;
      accounts = undefined;
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
