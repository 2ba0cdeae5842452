import t from 'tap';
import {
  needsAccount,
  verdictOf,
  type AvailabilityFacts,
} from '../../../services/shared/availability.js';
import type { CrawlerNode } from '../../../services/shared/contracts/advert.js';
import { findPlatform, type Channel } from '../../../services/shared/platforms.js';

const SH = '310100';
const BJ = '110100';

const node = (id: string, pairs: string[], regions: string[] = []): CrawlerNode => ({
  id,
  capacity: 2,
  regions,
  channels: ['api', 'web'],
  platforms: [...new Set(pairs.map((p) => p.split(':')[0]!))],
  pairs,
});

const judge = (
  platform: string,
  channel: Channel,
  regionCode: string | null,
  facts: AvailabilityFacts,
) => verdictOf(findPlatform(platform)!, channel, regionCode, facts);

const yes = { available: true, missing: [], reason: null };

t.test(
  'a real site’s web channel needs accounts; the API and the simulated sites do not',
  async (t) => {
    t.equal(needsAccount(findPlatform('deepseek')!, 'web'), true);
    t.equal(needsAccount(findPlatform('deepseek')!, 'api'), false);
    t.equal(needsAccount(findPlatform('sandbox-web')!, 'web'), false);
  },
);

t.test('an api pair: available when a live node runs it', async (t) => {
  const facts = { nodes: [node('a', ['deepseek:api'], ['310000', SH])], accounts: {} };
  t.strictSame(judge('deepseek', 'api', null, facts), yes);
  t.strictSame(judge('deepseek', 'api', SH, facts), yes, 'the node serves the region');
  t.strictSame(judge('kimi', 'api', null, facts), {
    available: false,
    missing: ['node'],
    reason: 'no live crawler node runs it',
  });
  t.strictSame(judge('deepseek', 'api', BJ, facts), {
    available: false,
    missing: ['node'],
    reason: `no live crawler node runs it in region ${BJ}`,
  });
});

t.test('a web pair: a node that runs it and an account in a usable region', async (t) => {
  const nodes = [node('sh', ['deepseek:web', 'sandbox-web:web'], [SH]), node('bj', [], [BJ])];
  t.strictSame(judge('deepseek', 'web', null, { nodes, accounts: { deepseek: [SH] } }), yes);
  t.strictSame(
    judge('deepseek', 'web', null, { nodes, accounts: { kimi: [null] } }),
    { available: false, missing: ['account'], reason: 'no usable account' },
    'accounts of another platform do not count',
  );
  t.strictSame(
    judge('deepseek', 'web', SH, { nodes, accounts: { deepseek: [null, BJ] } }),
    {
      available: false,
      missing: ['account'],
      reason: `no usable account in region ${SH} (usable ones: without region, ${BJ})`,
    },
    'an account without region does not serve a request for a region',
  );
  t.strictSame(judge('deepseek', 'web', SH, { nodes, accounts: { deepseek: [BJ, SH] } }), yes);
  t.strictSame(
    judge('deepseek', 'web', BJ, { nodes, accounts: { deepseek: [BJ] } }),
    { available: false, missing: ['node'], reason: `no live crawler node runs it in region ${BJ}` },
    'the Beijing node does not run the pair',
  );
  t.strictSame(
    judge('kimi', 'web', null, { nodes, accounts: {} }),
    {
      available: false,
      missing: ['node', 'account'],
      reason: 'no live crawler node runs it; no usable account',
    },
    'every missing part is named',
  );
  t.strictSame(judge('sandbox-web', 'web', SH, { nodes, accounts: {} }), yes, 'no login needed');
});

t.test('what cannot be told yet is null, unless something is known to be missing', async (t) => {
  t.strictSame(judge('deepseek', 'api', null, { nodes: [], accounts: {} }), {
    available: null,
    missing: [],
    reason: 'no crawler node is up yet: submitted work waits',
  });
  const nodes = [node('a', ['deepseek:web'])];
  t.strictSame(judge('deepseek', 'web', null, { nodes, accounts: undefined }), {
    available: null,
    missing: [],
    reason: 'the accounts service did not answer: submitted work waits',
  });
  t.strictSame(
    judge('deepseek', 'api', null, { nodes: [node('a', ['deepseek:api'])], accounts: undefined }),
    yes,
    'an api pair does not ask the accounts service',
  );
  t.strictSame(judge('deepseek', 'web', null, { nodes: [], accounts: {} }), {
    available: false,
    missing: ['account'],
    reason: 'no usable account',
  });
});

t.test('a platform that does not serve mainland China: never in a region', async (t) => {
  const facts = { nodes: [node('a', ['chatgpt:api', 'deepseek:api'], [SH])], accounts: {} };
  t.strictSame(judge('chatgpt', 'api', null, facts), yes, 'without a region it runs');
  for (const platform of ['chatgpt', 'perplexity', 'gemini'])
    t.strictSame(
      judge(platform, 'api', SH, facts),
      {
        available: false,
        missing: ['region'],
        reason: `${findPlatform(platform)!.label} does not serve mainland China, where region ${SH} is`,
      },
      `${platform}: refused in ${SH} though a node serves the region`,
    );
  t.strictSame(judge('deepseek', 'api', SH, facts), yes, 'a Chinese platform in the same region');
});
