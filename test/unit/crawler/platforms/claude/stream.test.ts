import t from 'tap';
import { MessagesAccumulator } from '../../../../../crawler/platforms/claude/stream.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { eventsAtEveryCut } from '../../../../helpers/sse-cuts.js';

const ev = (data: object) =>
  `event: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`;
// Recorded shape of a thinking + web search stream (platforms.md §4), shortened.
const STREAM = [
  ev({ type: 'message_start', message: { content: [], model: 'claude-sonnet-4-5-20250929' } }),
  ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
  ev({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: '先搜索。再回答。' },
  }),
  ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 's' } }),
  ev({ type: 'ping' }),
  ev({
    type: 'content_block_start',
    index: 1,
    content_block: {
      type: 'web_search_tool_result',
      content: [
        { type: 'web_search_result', url: 'https://a.example/', title: 'A' },
        { type: 'web_search_result', url: 'https://b.example/', title: 'B' },
      ],
    },
  }),
  ev({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }),
  ev({ type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: '前言。' } }),
  ev({ type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } }),
  ev({
    type: 'content_block_delta',
    index: 3,
    delta: {
      type: 'citations_delta',
      citation: { type: 'web_search_result_location', url: 'https://b.example/', title: 'B' },
    },
  }),
  ev({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'B 是对的。' } }),
  ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }),
  ev({ type: 'message_stop' }),
].join('');

t.test(
  'text blocks joined, thinking moved out, citations a subset, the model, at any byte cut',
  async (t) => {
    for (const events of eventsAtEveryCut(STREAM)) {
      const acc = new MessagesAccumulator();
      for (const e of events) acc.push(JSON.parse(e.data));
      acc.raw.reasoningContent = acc.reasoning;
      const a = buildAnswer(acc.raw);
      if (a.answerContent !== '前言。B 是对的。') t.fail(a.answerContent);
      t.same(a.reasoningProcess, { summary: '先搜索。', content: '先搜索。再回答。' });
      t.same(
        a.referenceList.map((r) => r.url),
        ['https://a.example/', 'https://b.example/'],
      );
      t.same(
        a.citationList.map((r) => r.index),
        [2],
      );
      t.equal(acc.stopReason, 'end_turn');
      t.equal(a.modelReported, 'claude-sonnet-4-5-20250929', 'the model message_start names');
    }
  },
);

t.test('an error event mid-stream is recorded', async (t) => {
  const acc = new MessagesAccumulator();
  acc.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  t.match(acc, { finished: true, error: { status: 0, code: 'overloaded_error' } });
});
