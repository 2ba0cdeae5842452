/**
 * The sandbox stand-in's wire format, spoken over a real socket on
 * 127.0.0.1:0: what an OpenAI-style client sees, the mode switches, and the
 * simulated failures.
 */
import t from 'tap';
import { sandboxAnswer } from '../../../sandbox/answers.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { SseParser } from '../../../crawler/platforms/common/sse.js';

const server = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => server.close());

async function post(
  body: unknown,
  headers: Record<string, string> = { authorization: 'Bearer k' },
) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The JSON chunks of an SSE body, and whether it ended with `[DONE]`. */
function chunksOf(text: string): { chunks: any[]; done: boolean } {
  const parser = new SseParser();
  const events = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
  const data = events.map((e) => e.data);
  return {
    chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d)),
    done: data.at(-1) === '[DONE]',
  };
}

t.test('non-streaming body: OpenAI completion with the sources of a search vendor', async (t) => {
  const res = await post({
    model: 'sandbox-reasoning-search',
    messages: [{ role: 'user', content: 'wire check' }],
  });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  const body = JSON.parse(res.text);
  const expected = sandboxAnswer('wire check', 'reasoning_search');
  t.equal(body.object, 'chat.completion');
  t.equal(body.choices[0].message.content, expected.answerContent);
  t.equal(body.choices[0].message.reasoning_content, expected.reasoningProcess!.content);
  t.equal(body.choices[0].finish_reason, 'stop');
  t.ok(body.choices[0].message.annotations.every((a: any) => a.type === 'url_citation'));
  t.same(
    body.search_results.map((r: any) => Object.keys(r).sort()),
    expected.referenceList.map(() => ['icon', 'index', 'site_name', 'title', 'url']),
  );
  t.same(body.related_questions, expected.recommendedQuestions);
  t.same(body.images, [
    { url: expected.mediaContent[0]!.url, title: expected.mediaContent[0]!.title },
  ]);
  t.equal(
    body.usage.total_tokens,
    body.usage.prompt_tokens + body.usage.completion_tokens,
    'usage adds up',
  );
  t.ok(body.usage.completion_tokens_details.reasoning_tokens > 0, 'reasoning tokens counted');
});

t.test('the vendors\u2019 switches override the model name', async (t) => {
  const expected = sandboxAnswer('wire check', 'search');
  const parts = await post({
    model: 'whatever',
    thinking: { type: 'disabled' },
    web_search: { enable: true },
    messages: [
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'wire ' },
          { type: 'text', text: 'check' },
        ],
      },
    ],
  });
  const body = JSON.parse(parts.text);
  t.equal(body.model, 'whatever', 'the model asked for is echoed');
  t.equal(body.choices[0].message.reasoning_content, undefined, 'reasoning off');
  t.equal(body.search_results.length, expected.referenceList.length, 'search on by switch');

  const off = JSON.parse(
    (
      await post({
        model: 'sandbox-reasoning-search',
        thinking: { type: 'enabled' },
        web_search: { enable: false },
        messages: [{ role: 'user', content: 'wire check' }],
      })
    ).text,
  );
  t.equal(off.search_results, undefined, 'search off by switch');
  t.type(off.choices[0].message.reasoning_content, 'string', 'reasoning on');
  t.equal(server.stats.requests.at(-1)!.mode, 'reasoning');
});

t.test(
  'streaming: reasoning, content, annotations, usage on the finish chunk, [DONE]',
  async (t) => {
    const expected = sandboxAnswer('wire check', 'reasoning_search');
    const streamed = await post({
      model: 'sandbox-reasoning-search',
      stream: true,
      messages: [{ role: 'user', content: 'wire check' }],
    });
    t.match(streamed.headers.get('content-type'), /text\/event-stream/);
    t.match(streamed.text, /^data: \{/);
    t.match(streamed.text, /\n: keep-alive\n/);
    t.match(streamed.text, /"delta":\{"annotations":\[/);
    t.ok(streamed.text.endsWith('data: [DONE]\n\n'));
    const { chunks, done } = chunksOf(streamed.text);
    t.ok(done);
    t.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    const deltas = chunks.map((c) => c.choices[0].delta);
    const reasoning = deltas.filter((d) => typeof d.reasoning_content === 'string');
    t.ok(
      reasoning.every((d) => d.content === null),
      'reasoning deltas carry content: null',
    );
    t.equal(reasoning.map((d) => d.reasoning_content).join(''), expected.reasoningProcess!.content);
    t.equal(
      deltas.map((d) => (typeof d.content === 'string' ? d.content : '')).join(''),
      expected.answerContent,
    );
    const last = chunks.at(-1)!;
    t.equal(last.choices[0].finish_reason, 'stop');
    t.ok(last.usage.completion_tokens > 0, 'usage on the finish chunk');
    t.equal(
      chunks.filter((c) => c.choices[0].finish_reason !== null).length,
      1,
      'one finish reason',
    );
  },
);

t.test('a refusal ends with the content filter, on both faces', async (t) => {
  const api = chunksOf(
    (
      await post({
        model: 'sandbox-standard',
        stream: true,
        messages: [{ role: 'user', content: 'no way #fail:refuse' }],
      })
    ).text,
  );
  t.equal(api.chunks.at(-1)!.choices[0].finish_reason, 'content_filter');
  const web = await fetch(`${server.url}/web/chat`, {
    method: 'POST',
    body: JSON.stringify({ prompt: 'no way #fail:refuse', reasoning: false, search: false }),
  });
  t.equal(chunksOf(await web.text()).chunks.at(-1)!.choices[0].finish_reason, 'content_filter');
});

t.test('credentials, bad bodies, unknown paths', async (t) => {
  const badAuth: Record<string, string>[] = [
    {},
    { authorization: 'Bearer ' },
    { authorization: 'Basic abc' },
  ];
  for (const headers of badAuth) {
    const r = await post(
      { model: 'sandbox-standard', messages: [{ role: 'user', content: 'x' }] },
      headers,
    );
    t.equal(r.status, 401);
    t.same(JSON.parse(r.text), {
      error: {
        message: JSON.parse(r.text).error.message,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  }
  const bad = await post({ messages: [] });
  t.equal(bad.status, 400);
  t.equal(JSON.parse(bad.text).error.type, 'invalid_request_error');
  const notFound = await fetch(`${server.url}/v2/nothing`);
  t.equal(notFound.status, 404);
  await notFound.arrayBuffer();
});

t.test('failureRate is deterministic for a seed', async (t) => {
  const run = async () => {
    const s = await startSandboxServer({ failureRate: 0.5, seed: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const r = await fetch(`${s.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
        body: JSON.stringify({ messages: [{ role: 'user', content: `load ${i}` }] }),
      });
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    await s.close();
    return statuses;
  };
  const a = await run();
  t.same(await run(), a, 'same seed, same outcomes');
  t.ok(a.some((s) => s === 200) && a.some((s) => s !== 200), `mixed: ${a.join(',')}`);
  t.ok(a.every((s) => [200, 429, 500, 503].includes(s)));

  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'x-sandbox-failure-rate': '1' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'forced' }] }),
  });
  t.ok([429, 500, 503].includes(r.status), 'per-request failure rate');
  await r.arrayBuffer();
});
