import t from 'tap';
import { MODES } from '../../../../../services/shared/platforms.js';
import { sandboxAnswer } from '../../../../../sandbox/answers.js';
import {
  accumulateCompletion,
  OpenAIStreamAccumulator,
  toolCallSources,
} from '../../../../../crawler/platforms/common/openai-stream.js';
import {
  buildAnswer,
  citationMarkers,
  emptyRaw,
  summarize,
} from '../../../../../crawler/platforms/common/raw-answer.js';
import { annotationsFor, completionBody, streamChunks } from '../../../../../sandbox/stream.js';

const O = { id: 'chatcmpl-1', created: 1700000000, model: 'sandbox' };
const PROMPTS = ['best CRM for startups', '最好的笔记软件是什么', 'a', 'Which 🚀 rocket? [1] (x)'];

t.test('streamed chunks accumulate back into the sandbox answer, every mode', async (t) => {
  for (const prompt of PROMPTS) {
    for (const mode of MODES) {
      const expected = sandboxAnswer(prompt, mode);
      const acc = new OpenAIStreamAccumulator();
      for (const c of streamChunks(expected, O)) acc.push(c);
      t.equal(acc.finishReason, 'stop');
      t.same(
        buildAnswer(acc.raw),
        { ...expected, modelReported: 'sandbox' },
        `${mode} / ${prompt}`,
      );
    }
  }
});

t.test('a non-streaming completion gives the same answer', async (t) => {
  for (const mode of MODES) {
    const expected = sandboxAnswer('best CRM for startups', mode);
    const body = completionBody(expected, O);
    t.same(
      buildAnswer(accumulateCompletion(body).raw),
      { ...expected, modelReported: 'sandbox' },
      `${mode}: with the model the completion names`,
    );
  }
});

t.test('annotations: code-point offsets of the markers, only for cited references', async (t) => {
  const answer = sandboxAnswer('best CRM for startups', 'search');
  const annotations = annotationsFor(answer);
  t.ok(annotations.length >= answer.citationList.length);
  const chars = Array.from(answer.answerContent);
  for (const a of annotations) {
    const marker = chars.slice(a.url_citation.start_index, a.url_citation.end_index).join('');
    const ref = answer.citationList.find((r) => r.url === a.url_citation.url);
    t.ok(ref, 'annotation points to a cited reference');
    t.equal(marker, `[${ref!.index}]`);
  }
  t.same(annotationsFor(sandboxAnswer('best CRM for startups', 'standard')), []);
});

t.test(
  'annotation-only citations and unlisted annotation URLs (titled from the annotation)',
  async (t) => {
    const acc = new OpenAIStreamAccumulator();
    acc.push({
      choices: [{ index: 0, delta: { content: 'Answer without markers.' } }],
      search_results: [
        {
          title: 'A',
          url: 'https://a.example/x',
          site_name: 'A site',
          icon: 'https://a.example/i.ico',
        },
        { title: 'B', url: 'https://www.b.example/y' },
      ],
    });
    acc.push({
      choices: [
        {
          index: 0,
          delta: {
            annotations: [
              {
                type: 'url_citation',
                url_citation: { url: 'https://www.b.example/y', title: 'B' },
              },
              { type: 'url_citation', url_citation: { url: 'https://c.example/z', title: 'C' } },
            ],
          },
          finish_reason: 'stop',
        },
      ],
    });
    const a = buildAnswer(acc.raw);
    t.same(a.referenceList, [
      {
        index: 1,
        title: 'A',
        url: 'https://a.example/x',
        site: 'A site',
        icon: 'https://a.example/i.ico',
      },
      { index: 2, title: 'B', url: 'https://www.b.example/y', site: 'b.example', icon: '' },
      { index: 3, title: 'C', url: 'https://c.example/z', site: 'c.example', icon: '' },
    ]);
    t.same(
      a.citationList.map((r) => r.index),
      [2, 3],
    );
  },
);

t.test('Perplexity-style citations (URL list), related questions and images', async (t) => {
  const acc = new OpenAIStreamAccumulator();
  acc.push({
    citations: ['https://one.example/', 'https://two.example/'],
    choices: [{ index: 0, delta: { content: 'See [2] and [9].' }, finish_reason: null }],
    related_questions: ['Q1', 5, 'Q2'],
    images: [
      { image_url: 'https://img.example/1.png', origin_url: 'https://one.example/' },
      'https://img.example/2.png',
    ],
  });
  const a = buildAnswer(acc.raw);
  t.same(
    a.referenceList.map((r) => [r.index, r.site]),
    [
      [1, 'one.example'],
      [2, 'two.example'],
    ],
  );
  t.same(
    a.citationList.map((r) => r.index),
    [2],
    'a marker with no reference is ignored',
  );
  t.same(a.recommendedQuestions, ['Q1', 'Q2']);
  t.same(a.mediaContent, [
    { type: 'image', url: 'https://img.example/1.png', sourceUrl: 'https://one.example/' },
    { type: 'image', url: 'https://img.example/2.png' },
  ]);
});

t.test('refusal deltas, error chunks, other choices and junk are handled', async (t) => {
  const acc = new OpenAIStreamAccumulator();
  acc.push('junk');
  acc.push(null);
  acc.push({ choices: [{ index: 1, delta: { content: 'other choice' } }] });
  acc.push({ choices: [{ index: 0, delta: { refusal: "I can't " } }] });
  acc.push({ choices: [{ index: 0, delta: { refusal: 'help.' } }] });
  acc.push({ error: { message: 'overloaded', code: 503, type: 'server_error' } });
  t.equal(acc.raw.content, '');
  t.equal(acc.raw.refusal, "I can't help.");
  t.same(acc.error, { message: 'overloaded', code: '503', type: 'server_error' });
  t.equal(acc.chunks, 4);
});

t.test('reasoning without a summary gets one from its first sentence', async (t) => {
  const raw = emptyRaw();
  raw.content = 'x';
  raw.reasoningContent = 'First I think. Then more.\nSecond line.';
  t.same(buildAnswer(raw).reasoningProcess, {
    summary: 'First I think.',
    content: 'First I think. Then more.\nSecond line.',
  });
  raw.reasoningContent = '   ';
  t.equal(buildAnswer(raw).reasoningProcess, null);
  t.equal(summarize('先想一想。再说'), '先想一想。');
  t.equal(summarize('no end mark'), 'no end mark');
  t.equal(Array.from(summarize('x'.repeat(500))).length, 200);
});

t.test('citation markers', async (t) => {
  t.same(citationMarkers('a[1] b[3][1] c[12] d[0] e[x] f[1234]'), [1, 3, 12]);
  t.same(citationMarkers('none'), []);
});

t.test('citationList is a subset of referenceList with equal values but own objects', async (t) => {
  const raw = emptyRaw();
  raw.content = 'x [1]';
  raw.searchResults = [{ index: 1, title: 't', url: 'https://u.example/' }];
  const a = buildAnswer(raw);
  t.same(a.citationList[0], a.referenceList[0]);
  t.not(a.citationList[0], a.referenceList[0]);
});

t.test("Kimi's $web_search call carries the sources; other arguments carry none", async (t) => {
  const call = (args: string) => ({
    id: 'c',
    type: 'builtin_function',
    name: '$web_search',
    arguments: args,
  });
  const found = [
    { title: 'A', url: 'https://a.example/', content: '…' },
    { title: 'B', url: 'https://b.example/', content: '…' },
  ];
  t.same(
    toolCallSources([
      call(JSON.stringify({ search_result: { search_id: 's' }, search_results: found })),
      call('{"search_result":{"search_id":"t"}}'),
      call('not json'),
    ]),
    found,
  );
});
