/**
 * Random bodies at the submit endpoint: whatever arrives, the answer is never a
 * 5xx, a 200 always matches the contract and stores exactly its sub tasks, and
 * a rejected request leaves the database exactly as it was.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  envelopeOf,
  errorEnvelopeSchema,
  submitDataSchema,
} from '../../../services/shared/contracts/http.js';
import { snapshotCounts, startEmbedded } from '../../helpers/cluster.js';

const SUBMIT = '/api/business/monitor/task/batch/shared';
const svc = await startEmbedded(t, { MAX_UNFINISHED_SUBTASKS: '100000000' });
const u = await svc.newUser();
const conn = await svc.db();

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '😀'.repeat(3)),
);
const platformName = fc.oneof(
  fc.constantFrom('chatgpt', 'OpenAI', 'deepseek', 'SANDBOX', 'glm', 'nosuch', ''),
  text,
);
const mode = fc.oneof(
  fc.constantFrom('standard', 'reasoning', 'search', 'reasoning_search', 'fast'),
  fc.anything(),
);
const platformConfig = fc.oneof(
  fc.record(
    {
      platform: platformName,
      mode,
      screenshot: fc.oneof(fc.constantFrom(0, 1, 2, 3, -1, 1.5, '1'), fc.anything()),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const submission = fc.record(
  {
    monitorKeywords: fc.oneof(text, fc.anything()),
    prompts: fc.oneof(fc.array(text, { maxLength: 60 }), fc.anything()),
    platforms: fc.oneof(fc.array(platformConfig, { maxLength: 55 }), fc.anything()),
    regionCode: fc.oneof(
      fc.array(fc.oneof(fc.stringMatching(/^[0-9]{2,12}$/), text), { maxLength: 3 }),
      fc.anything(),
    ),
    callbackUrl: fc.oneof(fc.webUrl(), text, fc.anything()),
  },
  { requiredKeys: [] },
);
const validish = fc.record({
  prompts: fc.array(fc.oneof(fc.constant('best CRM?'), text), { minLength: 1, maxLength: 3 }),
  platforms: fc.array(
    fc.record({
      platform: fc.constantFrom('chatgpt', 'OpenAI', 'deepseek', 'SANDBOX', 'glm'),
      mode: fc.constantFrom('standard', 'reasoning'),
      screenshot: fc.constantFrom(0, 1, 2),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});
/** A valid submission with at most one field replaced by random data. */
const nearValid = fc
  .tuple(
    validish,
    fc.option(
      fc.constantFrom('prompts', 'platforms', 'regionCode', 'callbackUrl', 'monitorKeywords'),
    ),
    fc.anything(),
  )
  .map(([b, key, junk]) => JSON.stringify(key ? { ...b, [key]: junk } : b));
const body = fc.oneof(
  { weight: 4, arbitrary: nearValid },
  { weight: 4, arbitrary: submission.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: text },
);

t.test('submit never answers 5xx and rejected requests store nothing', async (t) => {
  let accepted = 0;
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(body, async (raw) => {
      const before = await snapshotCounts(conn);
      const res = await svc.client.request('POST', SUBMIT, {
        token: u.token,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      if (res.status >= 500) throw new Error(`5xx for ${raw.slice(0, 300)}: ${res.text}`);
      if (res.status === 200) {
        accepted++;
        const { data } = envelopeOf(submitDataSchema).parse(res.body);
        const after = await snapshotCounts(conn);
        if (after.tasks !== before.tasks! + 1) throw new Error('accepted but no task stored');
        if (after.subtasks !== before.subtasks! + data.totalTask)
          throw new Error('sub task count mismatch');
      } else {
        rejected++;
        const err = errorEnvelopeSchema.parse(res.body);
        if (err.code !== res.status || res.status !== 400)
          throw new Error(`unexpected ${res.status}: ${res.text}`);
        const after = await snapshotCounts(conn);
        if (JSON.stringify(after) !== JSON.stringify(before))
          throw new Error(`rejected request changed the database: ${raw.slice(0, 300)}`);
      }
    }),
    { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
  );
  t.ok(rejected > 0, `rejected ${rejected}`);
  t.ok(accepted > 0, `accepted ${accepted}`);
});

t.test('some generated submissions are valid and accepted', async (t) => {
  const valid = fc.record({
    prompts: fc.array(
      fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => s.trim().length > 0),
      { minLength: 1, maxLength: 5 },
    ),
    platforms: fc.array(
      fc.record({
        platform: fc.constantFrom('chatgpt', 'OpenAI', 'Claude', 'qwen', 'tongyi', 'sandbox'),
        mode: fc.constantFrom('standard', 'reasoning', 'search', 'reasoning_search'),
        screenshot: fc.constantFrom(0, 1, 2),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  });
  await fc.assert(
    fc.asyncProperty(valid, async (b) => {
      const res = await svc.client.post(SUBMIT, b, u.token);
      if (res.status !== 200) throw new Error(res.text);
      const distinct = new Set(
        b.platforms.map(
          (p) =>
            ({ openai: 'chatgpt', tongyi: 'qwen' })[p.platform.toLowerCase()] ??
            p.platform.toLowerCase(),
        ),
      );
      if (res.body.data.totalTask !== b.prompts.length * distinct.size)
        throw new Error('totalTask is not prompts × distinct platforms');
    }),
    { numRuns: 40 },
  );
  t.pass('all valid submissions accepted with the right totalTask');
});
