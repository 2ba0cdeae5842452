import t from 'tap';
import {
  claims,
  isExpired,
  leases,
  newLease,
  renewalInterval,
} from '../../../services/shared/claim.js';

const NOW = 1_700_000_000_000;

t.test('newLease', async (t) => {
  const lease = newLease(NOW, 60_000);
  t.match(lease.token, /^[0-9a-f]{32}$/);
  t.equal(lease.token.length, 32);
  t.equal(lease.expiresAt, NOW + 60_000);
  t.strictSame(Object.keys(lease).sort(), ['expiresAt', 'token']);
  t.equal(newLease(0, 1).expiresAt, 1);
  t.equal(newLease(NOW, 0).expiresAt, NOW);
});

t.test('newLease tokens are unique', async (t) => {
  const tokens = new Set<string>();
  for (let i = 0; i < 1000; i++) tokens.add(newLease(NOW, 1000).token);
  t.equal(tokens.size, 1000);
});

t.test('renewalInterval is half the lease, at least 1 ms', async (t) => {
  t.equal(renewalInterval(60_000), 30_000);
  t.equal(renewalInterval(1001), 500, 'rounded down');
  t.equal(renewalInterval(3), 1);
  t.equal(renewalInterval(2), 1);
  t.equal(renewalInterval(1), 1, 'min 1');
  t.equal(renewalInterval(0), 1, 'min 1');
});

t.test('isExpired', async (t) => {
  t.equal(isExpired(null, NOW), false, 'no lease');
  t.equal(isExpired(undefined, NOW), false, 'no lease');
  t.equal(isExpired(NOW, NOW), true, 'expiry equal to now');
  t.equal(isExpired(NOW - 1, NOW), true);
  t.equal(isExpired(NOW + 1, NOW), false);
  t.equal(isExpired(0, NOW), true, '0 is a time, not missing');
});

t.test(
  'lease claims build the guarded filters and updates of sub tasks and deliveries',
  async (t) => {
    t.strictSame(leases.take('tok', 'node-1', NOW + 5), {
      leaseToken: 'tok',
      leaseNode: 'node-1',
      leaseExpiresAt: NOW + 5,
    });
    t.strictSame(leases.extend(NOW + 9), { leaseExpiresAt: NOW + 9 });
    t.strictSame(leases.free(), { leaseToken: null, leaseNode: null, leaseExpiresAt: null });
    t.strictSame(leases.heldWith('tok'), { leaseToken: 'tok' });
    t.strictSame(leases.lapsed(NOW), { leaseExpiresAt: { $lte: NOW } });
    t.strictSame(leases.takeable('tok', NOW), {
      $or: [{ leaseToken: 'tok' }, { leaseExpiresAt: { $lte: NOW } }],
    });
  },
);

t.test('claims on other field names (the leader lock: the owner is its own token)', async (t) => {
  const lock = claims({ token: 'owner', holder: 'owner', expiresAt: 'expiresAt' });
  t.strictSame(lock.take('sched-1', 'sched-1', NOW + 10), {
    owner: 'sched-1',
    expiresAt: NOW + 10,
  });
  t.strictSame(lock.takeable('sched-1', NOW), {
    $or: [{ owner: 'sched-1' }, { expiresAt: { $lte: NOW } }],
  });
  t.strictSame(lock.heldWith('sched-1'), { owner: 'sched-1' });
  t.strictSame(lock.free(), { owner: null, expiresAt: null });
});
