import t from 'tap';
import { GeminiAccumulator, segmentText } from '../../../../../crawler/platforms/gemini/stream.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { classify } from '../../../../../crawler/platforms/common/errors.js';
import { eventsAtEveryCut } from '../../../../helpers/sse-cuts.js';

const TEXT = '阿克米很好。Acme 🚀 评价高。';
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const first = '阿克米很好。';
const second = 'Acme 🚀 评价高。';

t.test('segments are UTF-8 byte spans, end exclusive, start 0 left out', async (t) => {
  t.equal(segmentText(TEXT, { endIndex: bytes(first) }), first);
  t.equal(segmentText(TEXT, { startIndex: bytes(first), endIndex: bytes(TEXT) }), second);
  t.equal(segmentText(TEXT, { startIndex: 3, endIndex: 6 }), '克');
  t.equal(
    segmentText(TEXT, { startIndex: 0, endIndex: bytes(TEXT) + 1 }),
    undefined,
    'past the end',
  );
  t.equal(segmentText(TEXT, {}), undefined, 'empty');
});

const data = (o: object) => `data: ${JSON.stringify(o)}\r\n\r\n`;
// Recorded shape (platforms.md §5): thoughts first, no sentinel, grounding on the last chunk.
const STREAM = [
  data({ candidates: [{ content: { parts: [{ text: '想一想。', thought: true }] } }] }),
  data({ candidates: [{ content: { parts: [{ text: first }] } }] }),
  data({
    candidates: [
      {
        content: { parts: [{ text: second }] },
        finishReason: 'STOP',
        groundingMetadata: {
          groundingChunks: [
            {
              web: {
                uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/A',
                title: 'a.example',
              },
            },
            {
              web: {
                uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/B',
                title: 'b.example',
              },
            },
          ],
          groundingSupports: [
            {
              segment: { startIndex: bytes(first), endIndex: bytes(TEXT) },
              groundingChunkIndices: [1],
            },
            { segment: { startIndex: 900, endIndex: 950 }, groundingChunkIndices: [0] },
          ],
        },
      },
    ],
    modelVersion: 'gemini-2.5-flash-preview-09-2025',
  }),
].join('');

t.test(
  'answer, thought summary, redirect sources, supported citations and the model',
  async (t) => {
    for (const events of eventsAtEveryCut(STREAM)) {
      const acc = new GeminiAccumulator();
      for (const e of events) acc.push(JSON.parse(e.data));
      const a = buildAnswer(acc.finish());
      if (a.answerContent !== TEXT) t.fail(a.answerContent);
      t.same(a.reasoningProcess, { summary: '想一想。', content: '想一想。' });
      t.same(a.referenceList[1], {
        index: 2,
        title: 'b.example',
        url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/B',
        site: 'b.example',
        icon: '',
      });
      t.same(
        a.citationList.map((r) => r.index),
        [2],
        'a support outside the answer does not count',
      );
      t.equal(a.modelReported, 'gemini-2.5-flash-preview-09-2025', 'the modelVersion it names');
    }
  },
);

t.test('blocked answers and error chunks', async (t) => {
  const acc = new GeminiAccumulator();
  acc.push({ promptFeedback: { blockReason: 'SAFETY' } });
  t.equal(acc.blocked, 'promptFeedback.blockReason SAFETY');
  const err = new GeminiAccumulator();
  err.push({ error: { code: 503, status: 'UNAVAILABLE', message: 'overloaded' } });
  t.match(err.error, { status: 0, code: 'UNAVAILABLE' });
  const exhausted = (quotaId: string) => {
    const acc = new GeminiAccumulator();
    acc.push({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        message: 'You exceeded your current quota, please check your plan and billing details.',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' },
        ],
      },
    });
    return classify('gemini', acc.error!);
  };
  t.match(exhausted('GenerateRequestsPerDayPerProjectPerModel'), {
    status: 'error',
    retryable: false,
  });
  t.match(exhausted('GenerateRequestsPerMinutePerProjectPerModel'), {
    status: 'failed',
    retryable: true,
    retryAfterSeconds: 31,
  });
});
