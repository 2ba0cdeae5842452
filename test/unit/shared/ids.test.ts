import t from 'tap';
import { isUuid, newTaskId, subTaskIdFor } from '../../../services/shared/ids.js';

const SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TASK = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

t.test('isUuid', async (t) => {
  t.equal(isUuid(TASK), true);
  t.equal(isUuid(TASK.toUpperCase()), true, 'case-insensitive');
  t.equal(isUuid('00000000-0000-0000-0000-000000000000'), true);
  t.equal(isUuid(''), false);
  t.equal(isUuid('not-a-uuid'), false);
  t.equal(isUuid(TASK.replace(/-/g, '')), false, 'hyphens required');
  t.equal(isUuid(`${TASK}0`), false, 'too long');
  t.equal(isUuid(TASK.slice(1)), false, 'too short');
  t.equal(isUuid(`{${TASK}}`), false);
  t.equal(isUuid(` ${TASK}`), false, 'no surrounding space');
  t.equal(isUuid(`${TASK}\n`), false, 'no trailing newline');
  t.equal(isUuid('3f2504e0-4f89-41d3-9a0c-0305e82c330g'), false, 'hex digits only');
});

t.test('newTaskId is a fresh random v4 UUID', async (t) => {
  const a = newTaskId();
  const b = newTaskId();
  t.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.ok(isUuid(a));
  t.not(a, b);
});

t.test('subTaskIdFor is deterministic', async (t) => {
  t.equal(subTaskIdFor(TASK, 0), subTaskIdFor(TASK, 0));
  t.equal(subTaskIdFor(TASK, 7), subTaskIdFor(TASK, 7));
  t.equal(
    subTaskIdFor(TASK.toUpperCase(), 3),
    subTaskIdFor(TASK, 3),
    'the task id is compared case-insensitively',
  );
});

t.test('subTaskIdFor is distinct per index and per task', async (t) => {
  const other = '9b2c1d7e-0000-4000-8000-000000000001';
  const ids = new Set<string>();
  for (let i = 0; i < 2500; i++) {
    ids.add(subTaskIdFor(TASK, i));
    ids.add(subTaskIdFor(other, i));
  }
  t.equal(ids.size, 5000);
  t.not(subTaskIdFor(TASK, 0), subTaskIdFor(other, 0));
  t.not(subTaskIdFor(TASK, 1), subTaskIdFor(TASK, 10));
});

t.test('subTaskIdFor has the UUID shape: version 8, RFC 9562 variant', async (t) => {
  const variants = new Set<string>();
  const misshaped: string[] = [];
  for (let i = 0; i < 500; i++) {
    const id = subTaskIdFor(TASK, i);
    if (!SHAPE.test(id) || !isUuid(id) || id[14] !== '8') misshaped.push(id);
    variants.add(id[19]!);
  }
  t.same(misshaped, [], 'every id is a lowercase v8 UUID');
  t.match(subTaskIdFor(TASK, 0), SHAPE);
  t.same([...variants].sort(), ['8', '9', 'a', 'b'], 'every variant nibble 8..b occurs');
});

t.test('subTaskIdFor is a fixed function of sha256(taskId/index)', async (t) => {
  // Pinned so a change of derivation (which would orphan stored ids) is noticed.
  const { createHash } = await import('node:crypto');
  const hex = createHash('sha256').update(`${TASK}/5`).digest('hex');
  const id = subTaskIdFor(TASK, 5);
  t.equal(id.slice(0, 8), hex.slice(0, 8));
  t.equal(id.slice(9, 13), hex.slice(8, 12));
  t.equal(id.slice(15, 18), hex.slice(13, 16));
  t.equal(id.slice(20, 23), hex.slice(17, 20));
  t.equal(id.slice(24), hex.slice(20, 32));
  t.equal(id[19], ((parseInt(hex[16]!, 16) & 3) | 8).toString(16));
});
