import t from 'tap';
import { ResponsesAccumulator } from '../../../../../crawler/platforms/common/responses.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { eventsAtEveryCut } from '../../../../helpers/sse-cuts.js';

// Recorded shape of an OpenAI reasoning + search stream (platforms.md §3), shortened.
const STREAM = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":1,"response":{"status":"in_progress","model":"gpt-5-2025-08-07","output":[]}}\n\n',
  'event: response.reasoning_summary_text.delta\ndata: {"type":"response.reasoning_summary_text.delta","summary_index":0,"delta":"先想。"}\n\n',
  'event: response.reasoning_summary_text.delta\ndata: {"type":"response.reasoning_summary_text.delta","summary_index":1,"delta":"Then act."}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","item":{"type":"web_search_call","action":{"type":"search","sources":[{"type":"url","url":"https://a.example/"},{"type":"url","url":"https://b.example/"}]}}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"答案：B 更好"}\n\n',
  'event: response.output_text.annotation.added\ndata: {"type":"response.output_text.annotation.added","annotation":{"type":"url_citation","url":"https://b.example/","title":"B 站点","start_index":3,"end_index":7}}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","response":{"status":"completed"}}\n\n',
].join('');

t.test('deltas, sources and annotations, whatever the byte cuts', async (t) => {
  for (const events of eventsAtEveryCut(STREAM)) {
    const acc = new ResponsesAccumulator();
    for (const e of events) acc.push(JSON.parse(e.data));
    t.ok(acc.finished);
    const a = buildAnswer(acc.raw);
    if (a.answerContent !== '答案：B 更好') t.fail(`content ${a.answerContent}`);
    t.same(a.reasoningProcess, { summary: '先想。\n\nThen act.', content: '先想。\n\nThen act.' });
    t.same(
      a.referenceList.map((r) => [r.index, r.title]),
      [
        [1, 'a.example'],
        [2, 'B 站点'],
      ],
    );
    t.same(
      a.citationList.map((r) => r.index),
      [2],
    );
    t.equal(a.modelReported, 'gpt-5-2025-08-07', 'the model response.created names');
  }
});

t.test(
  'the terminal response object is authoritative; failures and errors are recorded',
  async (t) => {
    const acc = new ResponsesAccumulator();
    acc.push({ type: 'response.output_text.delta', delta: 'partial' });
    acc.push({
      type: 'response.done',
      response: {
        output: [
          {
            type: 'message',
            content: [
              {
                type: 'output_text',
                text: 'whole',
                annotations: [{ type: 'url_citation', url: 'https://x.example/' }],
              },
            ],
          },
        ],
      },
    });
    t.equal(acc.raw.content, 'whole');
    t.same(acc.raw.citedUrls, ['https://x.example/']);
    const failed = new ResponsesAccumulator();
    failed.push({
      type: 'response.failed',
      response: { error: { code: 'rate_limit_exceeded', message: 'slow down' } },
    });
    t.match(failed.error, { status: 0, code: 'rate_limit_exceeded' });
    const errored = new ResponsesAccumulator();
    errored.push({ type: 'error', code: 'server_error', message: 'boom' });
    t.match(errored, { finished: true, error: { code: 'server_error' } });
  },
);

t.test('OpenAI: a citation on a `utm_source=openai` URL is the listed source', async (t) => {
  const acc = new ResponsesAccumulator();
  acc.push({
    type: 'response.output_item.done',
    item: {
      type: 'web_search_call',
      action: {
        sources: [
          { type: 'url', url: 'https://a.example/' },
          { type: 'url', url: 'https://b.example/p' },
          { type: 'url', url: 'https://b.example/p?utm_source=openai' },
        ],
      },
    },
  });
  acc.push({ type: 'response.output_text.delta', delta: 'B 更好' });
  acc.push({
    type: 'response.output_text.annotation.added',
    annotation: {
      type: 'url_citation',
      url: 'https://b.example/p?utm_source=openai',
      title: 'B 站点',
      start_index: 0,
      end_index: 4,
    },
  });
  acc.push({ type: 'response.completed', response: { status: 'completed' } });
  const a = buildAnswer(acc.raw);
  t.same(
    a.referenceList.map((r) => [r.index, r.title, r.url]),
    [
      [1, 'a.example', 'https://a.example/'],
      [2, 'B 站点', 'https://b.example/p'],
    ],
  );
  t.same(a.citationList, [a.referenceList[1]]);
});

t.test('xAI: `citations` lists every source in its order; annotations cite', async (t) => {
  const message = (annotations: object[]) => ({
    type: 'message',
    content: [{ type: 'output_text', text: 'xAI 是一家公司。', annotations }],
  });
  const response = {
    status: 'completed',
    model: 'grok-4-fast-reasoning',
    output: [
      { type: 'web_search_call', name: 'web_search', arguments: '{}', status: 'completed' },
      message([{ type: 'url_citation', url: 'https://x.ai/company' }]),
    ],
    citations: ['https://en.wikipedia.example/XAI', 'https://x.ai/company', 'https://x.ai/'],
  };
  const streamed = new ResponsesAccumulator();
  streamed.push({ type: 'response.output_text.delta', delta: 'xAI 是一家公司。' });
  streamed.push({
    type: 'response.output_text.annotation.added',
    annotation: { type: 'url_citation', url: 'https://x.ai/company' },
  });
  streamed.push({
    type: 'response.done',
    response: { status: 'completed', model: response.model, citations: response.citations },
  });
  const whole = new ResponsesAccumulator();
  whole.absorb(response);
  for (const acc of [streamed, whole]) {
    const a = buildAnswer(acc.raw);
    t.same(
      a.referenceList.map((r) => [r.index, r.title, r.url]),
      [
        [1, 'en.wikipedia.example', 'https://en.wikipedia.example/XAI'],
        [2, 'x.ai', 'https://x.ai/company'],
        [3, 'x.ai', 'https://x.ai/'],
      ],
    );
    t.same(a.citationList, [a.referenceList[1]]);
    t.equal(a.modelReported, 'grok-4-fast-reasoning', 'the model the response object names');
  }
});

t.test('xAI: its inline links `[[n]](url)` count by citation; only annotations cite', async (t) => {
  const text = 'xAI 是一家公司[[1]](https://x.ai/company)，总部在旧金山[[2]](https://x.ai/)。';
  const annotations = ['https://x.ai/company', 'https://x.ai/'].map((url) => ({
    type: 'url_citation',
    url,
  }));
  const acc = new ResponsesAccumulator();
  acc.push({ type: 'response.output_text.delta', delta: text });
  for (const annotation of annotations)
    acc.push({ type: 'response.output_text.annotation.added', annotation });
  acc.push({
    type: 'response.done',
    response: {
      status: 'completed',
      output: [
        {
          type: 'message',
          content: [{ type: 'output_text', text, annotations }],
        },
      ],
      citations: ['https://en.wikipedia.example/XAI', 'https://x.ai/company', 'https://x.ai/'],
    },
  });
  const a = buildAnswer(acc.raw);
  t.equal(a.referenceList.length, 3);
  t.same(
    a.citationList.map((r) => [r.index, r.url]),
    [
      [2, 'https://x.ai/company'],
      [3, 'https://x.ai/'],
    ],
    'the first source, never annotated, is not cited',
  );
});
