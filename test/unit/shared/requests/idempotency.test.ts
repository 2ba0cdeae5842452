import t from 'tap';
import {
  checkIdempotencyKey,
  requestFingerprint,
} from '../../../../services/shared/requests/idempotency.js';
import { isUuid, taskIdForKey } from '../../../../services/shared/ids.js';

t.test('a key: 1 to 255 printable ASCII characters, no spaces at the ends', async (t) => {
  t.equal(checkIdempotencyKey(undefined), undefined, 'no header, no key');
  t.strictSame(checkIdempotencyKey('8e0c1c4e-2b47-4f1e-9d0e-0e8a7c1b2f3a'), {
    key: '8e0c1c4e-2b47-4f1e-9d0e-0e8a7c1b2f3a',
  });
  t.strictSame(checkIdempotencyKey('order 7 / retry'), { key: 'order 7 / retry' });
  t.strictSame(checkIdempotencyKey('x'), { key: 'x' });
  t.strictSame(checkIdempotencyKey('k'.repeat(255)), { key: 'k'.repeat(255) });
  for (const bad of ['', ' a', 'a ', 'k'.repeat(256), 'café', 'a\tb', 'a\nb']) {
    const checked = checkIdempotencyKey(bad);
    t.ok(checked && 'problem' in checked, JSON.stringify(bad));
    if (checked && 'problem' in checked) t.equal(checked.problem.field, 'Idempotency-Key');
  }
});

t.test('the fingerprint: the same request in any key order, any other request apart', async (t) => {
  const a = { prompts: ['p', 'q'], platforms: [{ platform: 'kimi', mode: 'search' }], name: 'x' };
  const b = { name: 'x', platforms: [{ mode: 'search', platform: 'kimi' }], prompts: ['p', 'q'] };
  t.equal(requestFingerprint(a), requestFingerprint(b));
  t.equal(
    requestFingerprint({ ...a, extra: undefined }),
    requestFingerprint(a),
    'undefined is absent',
  );
  t.not(
    requestFingerprint({ ...a, prompts: ['q', 'p'] }),
    requestFingerprint(a),
    'order of a list counts',
  );
  t.not(requestFingerprint({ ...a, name: 'y' }), requestFingerprint(a));
  t.not(requestFingerprint({ ...a, name: null }), requestFingerprint({ ...a, name: 'null' }));
  t.not(requestFingerprint(null), requestFingerprint({}));
});

t.test('a keyed task id: a UUID of the user and the key', async (t) => {
  const id = taskIdForKey(7, 'order-1');
  t.ok(isUuid(id));
  t.equal(taskIdForKey(7, 'order-1'), id, 'stable');
  t.not(taskIdForKey(8, 'order-1'), id, 'another user');
  t.not(taskIdForKey(7, 'order-2'), id, 'another key');
});
