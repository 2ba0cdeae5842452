import t from 'tap';
import {
  newWebhookSecret,
  signature,
  verifyWebhook,
  webhookHeaders,
  webhookIdFor,
} from '../../../../services/shared/webhooks/sign.js';

// The published Standard Webhooks test vector.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

t.test('signs the Standard Webhooks test vector exactly', async (t) => {
  t.equal(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
  t.same(webhookHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp * 1000 + 999, VECTOR.body), {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': VECTOR.signature,
  });
});

t.test('verification: right secret within tolerance only', async (t) => {
  const headers = {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': VECTOR.signature,
  };
  const now = VECTOR.timestamp * 1000;
  t.ok(verifyWebhook(VECTOR.secret, headers, VECTOR.body, now));
  t.ok(
    verifyWebhook(
      VECTOR.secret,
      { ...headers, 'webhook-signature': `v1,bm9wZQ== ${VECTOR.signature}` },
      VECTOR.body,
      now,
    ),
    'any one of several signatures',
  );
  t.notOk(verifyWebhook(newWebhookSecret(), headers, VECTOR.body, now), 'another secret');
  t.notOk(verifyWebhook(VECTOR.secret, headers, `${VECTOR.body} `, now), 'another body');
  t.notOk(
    verifyWebhook(VECTOR.secret, { ...headers, 'webhook-id': 'msg_other' }, VECTOR.body, now),
    'another id',
  );
  t.notOk(verifyWebhook(VECTOR.secret, headers, VECTOR.body, now + 301_000), 'too old');
  t.notOk(
    verifyWebhook(VECTOR.secret, { ...headers, 'webhook-signature': undefined }, VECTOR.body, now),
  );
});

t.test('secrets and ids', async (t) => {
  const a = newWebhookSecret();
  t.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.equal(Buffer.from(a.slice(6), 'base64').length, 32, '256-bit key');
  t.not(a, newWebhookSecret());
  const taskId = '3f2b8c1e-0000-4000-8000-000000000000';
  t.equal(webhookIdFor('task', taskId), `msg_${taskId}`, "a task's is spec 6's msg_<taskId>");
  t.not(webhookIdFor('task', taskId), webhookIdFor('task', '3f2b8c1e-0000-4000-8000-000000000001'));
  t.equal(
    webhookIdFor('monitor.changes', taskId),
    `msg_monitor.changes_${taskId}`,
    'other kinds name theirs, so a run and a task with one id never share an id',
  );
});
