import t from 'tap';
import {
  AccountBudget,
  accountStates,
  AccountWait,
  noAccountMessage,
  type AccountRow,
} from '../../../services/scheduler/account-capacity.js';
import { queueItem } from '../../helpers/queue-items.js';

t.test('the budget of a pass, per region and for work without region', async (t) => {
  const b = new AccountBudget({
    'kimi|310000': 2,
    'kimi|': 1,
    'kimi|110000': 0,
    'doubao|310000': 1,
  });
  t.ok(b.available('kimi', '310000'));
  t.notOk(b.available('kimi', '110000'), 'a zero count is none');
  t.notOk(b.available('kimi', '440000'));
  t.ok(b.available('kimi', null), 'any region');
  t.notOk(b.available('deepseek', null));
  t.strictSame(b.candidates('kimi', '310000'), ['310000'], 'a region claims only its own');
  t.strictSame(b.candidates('kimi', null), [null, '310000'], 'without region first, then the most');
  b.take('kimi', '310000');
  b.take('kimi', '310000');
  t.notOk(b.available('kimi', '310000'));
  t.ok(b.available('kimi', null), 'one without region is left');
  b.take('kimi', null);
  t.notOk(b.available('kimi', null));
  t.ok(b.available('doubao', '310000'), 'other platforms keep theirs');
  b.exhaust('doubao', '310000');
  t.notOk(b.available('doubao', null));
  t.strictSame(b.candidates('doubao', null), []);
});

t.test(
  'the wait for an account starts when due and restarts while accounts are seen',
  async (t) => {
    const w = new AccountWait(1_000);
    const sh = queueItem('T', 1, 0, { regionCode: '310000', platform: 'kimi' });
    const any = queueItem('T', 1, 1, { platform: 'kimi' });
    t.notOk(w.expired(sh, 10_000), 'never lacking');
    w.lacking(sh, 0);
    w.lacking(any, 0);
    w.lacking(sh, 500);
    t.equal(sh.accountWaitSince, 0, 'the first time counts');
    t.notOk(w.expired(sh, 999));
    w.seen('kimi', '110000', 900);
    t.ok(w.expired(sh, 1_000), 'another region’s account does not serve it');
    t.notOk(w.expired(any, 1_000), 'but serves work without region');
    t.ok(w.expired(any, 1_900));
    w.seen('kimi', '310000', 1_500);
    t.notOk(w.expired(sh, 2_499));
    t.ok(w.expired(sh, 2_500));
  },
);

t.test('the failure message and the accounts by state', async (t) => {
  const now = Date.parse('2026-11-23T18:00:00Z');
  const row = (extra: Partial<AccountRow>): AccountRow => ({
    regionCode: '310000',
    state: 'healthy',
    coolUntil: null,
    holder: null,
    availableAt: null,
    hasState: true,
    ...extra,
  });
  const rows = [
    row({ state: 'needs_human' }),
    row({ state: 'cooling', coolUntil: Date.parse('2026-11-23T18:55:00Z') }),
    row({ state: 'cooling', coolUntil: Date.parse('2026-11-23T18:40:00Z') }),
    row({ regionCode: '110000', state: 'disabled' }),
    row({ regionCode: '110000', holder: 'S-1 tok' }),
    row({ regionCode: '110000', availableAt: Date.parse('2026-11-23T19:05:00Z') }),
    row({ regionCode: null, hasState: false }),
  ];
  t.equal(accountStates(rows, '310000', now), '3 accounts: 1 needs_human, 2 cooling until 18:40');
  t.equal(
    accountStates(rows, '110000', now),
    '3 accounts: 1 disabled, 1 in use, 1 resting (gap or quota) until 19:05',
  );
  t.equal(accountStates(rows.slice(6), null, now), '1 account: 1 without a stored login');
  t.equal(accountStates([], '440000', now), 'no accounts');
  t.equal(
    noAccountMessage('kimi', '310000', '3 accounts: 1 needs_human, 2 cooling until 18:40'),
    'no usable kimi web account in region 310000 (3 accounts: 1 needs_human, 2 cooling until 18:40)',
  );
  t.equal(
    noAccountMessage('kimi', null, 'no accounts'),
    'no usable kimi web account in any region (no accounts)',
  );
});
