import t from 'tap';
import { z } from 'zod';
import { fieldName, zodProblems } from '../../../services/shared/validation.js';

t.test('fieldName', async (t) => {
  t.equal(fieldName([]), 'body');
  t.equal(fieldName(['prompts']), 'prompts');
  t.equal(fieldName(['prompts', 3]), 'prompts[3]');
  t.equal(fieldName(['platforms', 0, 'mode']), 'platforms[0].mode');
  t.equal(fieldName(['a', 'b', 1, 2, 'c']), 'a.b[1][2].c');
  t.equal(fieldName([0, 'x']), '[0].x');
  t.equal(fieldName([Symbol('s')]), 'Symbol(s)');
});

t.test('zodProblems maps issues to field/message pairs, without duplicates', async (t) => {
  const schema = z.object({
    name: z.string({ error: 'must be a string' }),
    tags: z.array(z.string({ error: 'must be a string' })),
    nested: z.object({ n: z.number({ error: 'must be a number' }) }),
  });
  const r = schema.safeParse({ name: 1, tags: ['a', 2, 3], nested: { n: 'x' } });
  t.equal(r.success, false);
  t.same(zodProblems(r.error!), [
    { field: 'name', message: 'must be a string' },
    { field: 'tags[1]', message: 'must be a string' },
    { field: 'tags[2]', message: 'must be a string' },
    { field: 'nested.n', message: 'must be a number' },
  ]);
});

t.test('the same field and message are reported once', async (t) => {
  const schema = z
    .string()
    .refine(() => false, 'bad')
    .refine(() => false, 'bad')
    .refine(() => false, 'other');
  const r = schema.safeParse('x');
  t.same(zodProblems(r.error!), [
    { field: 'body', message: 'bad' },
    { field: 'body', message: 'other' },
  ]);
});
