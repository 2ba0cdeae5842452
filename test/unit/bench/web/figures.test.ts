import t from 'tap';
import { marginalPerPage, median, timingsOf } from '../../../../bench/web/figures.js';

t.test(
  'each answered report pairs with its last lease and its account chat call in between',
  async (t) => {
    const leases = [
      { subTaskId: 's1', accountId: 'a', at: 1000 },
      { subTaskId: 's2', accountId: 'b', at: 1000 },
      // s1's retry on another account: the report ends this lease, not the first.
      { subTaskId: 's1', accountId: 'b', at: 9000 },
    ];
    const reports = [
      { subTaskId: 's2', answered: true, at: 5000 },
      { subTaskId: 's1', answered: false, at: 6000 },
      { subTaskId: 's1', answered: true, at: 14000 },
    ];
    const requests = [
      { accountId: 'a', chat: false, at: 1200 },
      { accountId: 'a', chat: true, at: 2000, ms: 1000 },
      { accountId: 'b', chat: false, at: 1500 },
      { accountId: 'b', chat: true, at: 2500, ms: 2000 },
      { accountId: 'b', chat: false, at: 9400 },
      { accountId: 'b', chat: true, at: 10000, ms: 3000 },
    ];
    const checkouts = [
      { subTaskId: 's1', at: 1100 },
      { subTaskId: 's2', at: 1100 },
      { subTaskId: 's1', at: 9100 },
    ];
    const { timings, unpaired } = timingsOf(leases, checkouts, reports, requests);
    t.equal(unpaired, 0);
    t.same(timings, [
      {
        subTaskId: 's2',
        wallMs: 4000,
        answerMs: 2000,
        overheadMs: 2000,
        toCheckoutMs: 100,
        toFirstRequestMs: 400,
        toChatMs: 1000,
        afterChatMs: 500,
      },
      {
        subTaskId: 's1',
        wallMs: 5000,
        answerMs: 3000,
        overheadMs: 2000,
        toCheckoutMs: 100,
        toFirstRequestMs: 300,
        toChatMs: 600,
        afterChatMs: 1000,
      },
    ]);
  },
);

t.test(
  'a report without exactly one finished chat call of its account is counted, not guessed',
  async (t) => {
    const leases = [
      { subTaskId: 's1', accountId: 'a', at: 0 },
      { subTaskId: 's2', accountId: 'b', at: 0 },
    ];
    const reports = [
      { subTaskId: 's1', answered: true, at: 5000 },
      { subTaskId: 's2', answered: true, at: 5000 },
      { subTaskId: 's3', answered: true, at: 5000 },
    ];
    const requests = [
      { accountId: 'a', chat: true, at: 100, ms: 100 },
      { accountId: 'a', chat: true, at: 300, ms: 100 },
      { accountId: 'b', chat: true, at: 100 },
    ];
    const checkouts = [
      { subTaskId: 's1', at: 10 },
      { subTaskId: 's2', at: 10 },
    ];
    t.same(timingsOf(leases, checkouts, reports, requests), { timings: [], unpaired: 3 });
  },
);

t.test('marginal memory per page and the median', async (t) => {
  t.equal(marginalPerPage(300_000, 600_000, 4), 75_000);
  t.equal(median([3, 1, 2]), 2);
  t.equal(median([4, 1, 3, 2]), 2.5);
  t.ok(Number.isNaN(median([])));
});
