import t from 'tap';
import type { AccountDoc } from '../../../services/accounts/models.js';
import type { Pacing } from '../../../services/accounts/pacing.js';
import {
  afterRelease,
  keepsRunState,
  availableAt,
  blocker,
  identityFor,
  isUsable,
  leastUsedPort,
  nextUseAt,
  noneUsable,
  quotaLeft,
  stateAfter,
  type Wanted,
} from '../../../services/accounts/policy.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const kimi: Pacing = { quota: { prompts: 3, perMs: 3 * HOUR }, gapMs: 20_000 };
const open: Pacing = { quota: null, gapMs: 20_000 };

function account(over: Partial<AccountDoc> = {}): AccountDoc {
  return {
    _id: 'a1',
    platform: 'kimi',
    label: 'one',
    regionCode: null,
    proxyKey: null,
    state: 'healthy',
    coolUntil: null,
    reason: null,
    screenshotId: null,
    stateCipher: 'sealed',
    holder: null,
    heldUntil: null,
    lastUsedAt: null,
    nextUseAt: 0,
    usage: [],
    createdAt: 0,
    ...over,
  };
}

t.test('usable: healthy or cooled down, logged in, free, past the gap, quota left', async (t) => {
  t.ok(isUsable(account(), NOW, kimi));
  t.notOk(isUsable(account({ state: 'disabled' }), NOW, kimi));
  t.notOk(isUsable(account({ state: 'needs_human' }), NOW, kimi));
  t.notOk(isUsable(account({ state: 'cooling', coolUntil: NOW + 1 }), NOW, kimi));
  t.ok(isUsable(account({ state: 'cooling', coolUntil: NOW }), NOW, kimi));
  t.notOk(isUsable(account({ stateCipher: null }), NOW, kimi), 'never logged in');
  t.notOk(isUsable(account({ holder: 'x t', heldUntil: NOW }), NOW, kimi), 'held');
  t.ok(isUsable(account({ holder: 'x t', heldUntil: NOW - 1 }), NOW, kimi), 'hold lapsed');
  t.notOk(isUsable(account({ nextUseAt: NOW + 1 }), NOW, kimi), 'inside the gap');
  t.ok(isUsable(account({ nextUseAt: NOW }), NOW, kimi));
  const full = [NOW - 1, NOW - HOUR, NOW - 3 * HOUR + 1];
  t.notOk(isUsable(account({ usage: full }), NOW, kimi), 'quota used up');
  t.ok(isUsable(account({ usage: full }), NOW + 1, kimi), 'the oldest left the window');
  t.ok(isUsable(account({ usage: full }), NOW, open), 'no quota: no limit');
});

t.test('quota left counts the prompts inside the window', async (t) => {
  t.equal(quotaLeft([], NOW, kimi.quota), 3);
  t.equal(quotaLeft([NOW - 10], NOW, kimi.quota), 2);
  t.equal(quotaLeft([NOW - 10, NOW - 3 * HOUR], NOW, kimi.quota), 2, 'the window end is outside');
  t.equal(
    quotaLeft(
      [1, 2, 3, 4].map((i) => NOW - i),
      NOW,
      kimi.quota,
    ),
    0,
    'never negative',
  );
  t.equal(quotaLeft([NOW], NOW, null), null);
});

t.test('the gap is stretched by up to the jitter, never shortened', async (t) => {
  t.equal(nextUseAt(NOW, 20_000, 0.3, 0), NOW + 20_000);
  t.equal(nextUseAt(NOW, 20_000, 0.3, 0.5), NOW + 23_000);
  const draws = Array.from(
    { length: 1000 },
    () => nextUseAt(NOW, 20_000, 0.3, Math.random()) - NOW,
  );
  t.ok(Math.min(...draws) >= 20_000 && Math.max(...draws) <= 26_000, 'within [20000, 26000]');
  t.equal(nextUseAt(NOW, 20_000, 0, 0.99), NOW + 20_000, 'no jitter');
  t.equal(nextUseAt(NOW, 0, 0.3, 0.99), NOW, 'no gap');
});

t.test('verdicts: the new state, with an operator disable kept', async (t) => {
  t.equal(stateAfter('healthy', { state: 'cooling', untilMs: 5, reason: 'r' }), 'cooling');
  t.equal(stateAfter('cooling', { state: 'healthy' }), 'healthy');
  t.equal(stateAfter('healthy', { state: 'needs_human', reason: 'r' }), 'needs_human');
  t.equal(stateAfter('disabled', { state: 'healthy' }), 'disabled');
  t.equal(stateAfter('disabled', { state: 'needs_human', reason: 'r' }), 'disabled');
});

t.test('a release frees the hold and records the prompt', async (t) => {
  const a = account({
    usage: [NOW - 3 * HOUR - 1, NOW - HOUR].sort((x, y) => y - x),
    holder: 'h t',
  });
  t.same(
    afterRelease(
      a,
      { verdict: { state: 'healthy' }, prompted: true, screenshotId: null },
      NOW,
      kimi,
      0.3,
      0.5,
    ),
    {
      holder: null,
      heldUntil: null,
      state: 'healthy',
      coolUntil: null,
      reason: null,
      humanKind: null,
      screenshotId: null,
      lastUsedAt: NOW,
      nextUseAt: NOW + 23_000,
      usage: [NOW, NOW - HOUR],
    },
  );
  t.same(
    afterRelease(
      a,
      {
        verdict: { state: 'cooling', untilMs: NOW + 9, reason: 'rate' },
        prompted: false,
        screenshotId: null,
      },
      NOW,
      kimi,
      0.3,
      0.5,
    ),
    {
      holder: null,
      heldUntil: null,
      state: 'cooling',
      coolUntil: NOW + 9,
      reason: 'rate',
      humanKind: null,
      screenshotId: null,
    },
    'no prompt: pacing and usage untouched',
  );
  t.match(
    afterRelease(
      a,
      {
        verdict: { state: 'needs_human', reason: 'login wall' },
        prompted: true,
        screenshotId: 'abc',
      },
      NOW,
      open,
      0.3,
      0,
    ),
    {
      state: 'needs_human',
      reason: 'login wall',
      humanKind: 'login_wall',
      screenshotId: 'abc',
      usage: [],
      nextUseAt: NOW + 20_000,
    },
  );
});

t.test('the kind of help a needs_human verdict asks for', async (t) => {
  const human = (kind?: 'session_expired') =>
    afterRelease(
      account({ holder: 'h t' }),
      {
        verdict: { state: 'needs_human', reason: 'r', ...(kind && { kind }) },
        prompted: false,
        screenshotId: null,
      },
      NOW,
      open,
      0,
      0,
    ).humanKind;
  t.equal(human('session_expired'), 'session_expired');
  t.equal(human(), 'login_wall', 'a verdict without a kind is a login wall');
});

t.test('a run stores its storage state only when it proved the session alive', async (t) => {
  const wall = { state: 'needs_human', reason: 'login wall' } as const;
  const cool = { state: 'cooling', untilMs: NOW, reason: 'rate' } as const;
  t.equal(keepsRunState('healthy', { state: 'healthy' }), true);
  t.equal(keepsRunState('healthy', cool), true, 'a rate message: the site knew the session');
  t.equal(keepsRunState('healthy', wall), false, 'a wall: its state is the logged-out one');
  t.equal(keepsRunState('needs_human', wall), false);
  t.equal(keepsRunState('needs_human', cool), false, 'a needs_human login stays');
  t.equal(keepsRunState('needs_human', { state: 'healthy' }), true, 'unless the run answered');
});

t.test('when an account is next available', async (t) => {
  t.equal(availableAt(account(), NOW, kimi), null);
  t.equal(availableAt(account({ nextUseAt: NOW + 5 }), NOW, kimi), NOW + 5);
  t.equal(
    availableAt(account({ state: 'cooling', coolUntil: NOW + 50, nextUseAt: NOW + 5 }), NOW, kimi),
    NOW + 50,
  );
  const usage = [NOW - 1, NOW - 2, NOW - HOUR];
  t.equal(
    availableAt(account({ usage }), NOW, kimi),
    NOW - HOUR + 3 * HOUR,
    'the oldest prompt of the window expiring',
  );
});

t.test('the least-used port of the claim, the first on a tie', async (t) => {
  t.equal(leastUsedPort(['h:1', 'h:2'], []), 'h:1');
  t.equal(leastUsedPort(['h:1', 'h:2'], ['h:1']), 'h:2');
  t.equal(leastUsedPort(['h:1', 'h:2', 'h:3'], ['h:1', 'h:2', 'h:2', 'x:9']), 'h:3');
  t.equal(leastUsedPort([], ['h:1']), undefined);
});

t.test('why an account cannot take a claim, and the empty claim reason', async (t) => {
  const w: Wanted = { platform: 'kimi', regionCode: '310100', ports: ['h:1'], avoid: ['a9'] };
  const cases: [Partial<AccountDoc>, string | undefined][] = [
    [{}, undefined],
    [{ state: 'disabled' }, 'disabled'],
    [{ state: 'cooling', coolUntil: NOW + 1 }, 'cooling'],
    [{ stateCipher: null }, 'never logged in'],
    [{ holder: 'h t', heldUntil: NOW }, 'busy'],
    [{ usage: [NOW, NOW, NOW] }, 'quota used up'],
    [{ nextUseAt: NOW + 1 }, 'pacing gap'],
    [{ _id: 'a9' }, 'used by the previous attempt'],
    [{ regionCode: '310100', proxyKey: 'h:2' }, 'its proxy port is down'],
    [{ regionCode: '310100', proxyKey: 'h:1' }, undefined],
  ];
  for (const [over, why] of cases)
    t.equal(blocker(account(over), w, NOW, kimi), why, JSON.stringify(over));
  t.equal(
    blocker(account({ regionCode: '310100' }), { ...w, ports: [] }, NOW, kimi),
    'no proxy port',
  );
  t.equal(
    noneUsable(
      [
        account({ state: 'disabled' }),
        account({ nextUseAt: NOW + 1 }),
        account({ state: 'disabled' }),
      ],
      w,
      NOW,
      kimi,
    ),
    'no usable kimi web account in region 310100 (3 accounts: 2 disabled, 1 pacing gap)',
  );
  t.equal(
    noneUsable([], { ...w, regionCode: null }, NOW, kimi),
    'no usable kimi web account (no accounts)',
  );
});

t.test('locale and time zone of a region', async (t) => {
  t.same(identityFor(null), { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  t.same(identityFor('310100'), { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  t.same(identityFor('440300'), { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  t.same(identityFor('810000'), { locale: 'zh-HK', timezoneId: 'Asia/Hong_Kong' });
});
