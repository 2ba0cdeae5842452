/**
 * DeepSeek's chat stream parser on recorded-format fixtures (one per format
 * version and per in-stream signal, modelled on xln3/platform-v2's captured
 * streams and daijinma/geo_marketing's 2025 fields), each fed cut at every
 * byte and byte by byte: every cut gives the same answer or the same error.
 */
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import { DeepseekStream, frameText } from '../../../../../crawler/platforms/deepseek/web/stream.js';
import { chatCallFailure } from '../../../../../crawler/platforms/deepseek/web/envelope.js';
import { effectiveMode } from '../../../../../crawler/platforms/deepseek/web/mode.js';
import { ROOT } from '../../../../../infra/processes.js';
import { join } from 'node:path';

const fixture = (name: string) =>
  readFileSync(join(ROOT, 'test/fixtures/web/deepseek', name), 'utf8');

type Outcome =
  | {
      finished: boolean;
      formatVersion: string;
      refusal: string;
      answer: ReturnType<typeof buildAnswer>;
      frames: string[];
    }
  | { error: string; status: string; retryable: boolean; account: string | undefined };

function run(chunks: Uint8Array[]): Outcome {
  const p = new DeepseekStream();
  const frames: string[] = [];
  try {
    for (const c of chunks) {
      for (const e of p.push(c)) {
        frames.push(frameText(e));
        p.apply(e);
      }
    }
    for (const e of p.end()) {
      frames.push(frameText(e));
      p.apply(e);
    }
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return {
      error: err.message,
      status: err.status,
      retryable: err.retryable,
      account: err.account?.state,
    };
  }
  const raw = p.result();
  return {
    finished: p.finished,
    formatVersion: p.formatVersion,
    refusal: raw.refusal,
    answer: buildAnswer(raw),
    frames,
  };
}

/** The outcome of the whole stream, after checking that every cut and byte-wise feeding agree. */
function parse(t: Test, name: string): Outcome {
  const bytes = new TextEncoder().encode(fixture(name));
  const whole = run([bytes]);
  let differing = 0;
  for (let cut = 1; cut < bytes.length; cut++) {
    const o = run([bytes.subarray(0, cut), bytes.subarray(cut)]);
    if (JSON.stringify(o) !== JSON.stringify(whole)) differing++;
  }
  t.equal(differing, 0, `${name}: the same at every one of ${bytes.length - 1} cuts`);
  const bytewise = run(Array.from(bytes, (b) => Uint8Array.of(b)));
  t.same(bytewise, whole, `${name}: the same fed byte by byte`);
  return whole;
}

const icon = (host: string) => `https://cdn.deepseek.com/site-icons/${host}`;

t.test(
  '2026: THINK → TOOL_SEARCH → TOOL_OPEN → RESPONSE, [reference:N], CRLF line ends',
  async (t) => {
    const o = parse(t, '2026-reasoning-search.txt');
    if ('error' in o) return t.fail(o.error);
    t.equal(o.formatVersion, 'deepseek-2026');
    t.equal(o.finished, true);
    const refs = [
      {
        index: 1,
        title: '国产 CRM 市场报告',
        url: 'https://www.news.cn/a/1',
        site: '新华网',
        icon: icon('www.news.cn'),
      },
      {
        index: 2,
        title: 'CRM 选型指南',
        url: 'https://www.36kr.com/a/2',
        site: '36氪',
        icon: icon('www.36kr.com'),
      },
      {
        index: 3,
        title: '销售易与纷享销客对比',
        url: 'https://zhuanlan.zhihu.com/a/3',
        site: '知乎专栏',
        icon: icon('zhuanlan.zhihu.com'),
      },
      // Read (TOOL_OPEN) without being listed by the search: shown as a source too.
      {
        index: 4,
        title: 'CRM 年度榜单',
        url: 'https://www.sohu.com/a/9',
        site: '搜狐',
        icon: icon('www.sohu.com'),
      },
    ];
    t.same(o.answer, {
      answerContent: '## 结论\n\n销售易适合大中型企业[2]，纷享销客更灵活[4]。',
      referenceList: refs,
      citationList: [refs[1], refs[3]],
      reasoningProcess: {
        summary: '用户想比较国产 CRM。',
        content: '用户想比较国产 CRM。先搜索最新评测。',
      },
      recommendedQuestions: [],
      mediaContent: [],
    });
    t.equal(o.frames.length, 21, 'every SSE event is a frame for the evidence');
    t.equal(
      o.frames[0],
      'event: ready\ndata: {"request_message_id":1,"response_message_id":2,"model_type":"default"}',
    );
  },
);

t.test(
  '2026 without search: text after FINISHED events (title, close) stays out of the answer',
  async (t) => {
    const o = parse(t, '2026-standard.txt');
    if ('error' in o) return t.fail(o.error);
    t.equal(o.formatVersion, 'deepseek-2026');
    t.equal(o.finished, true);
    t.equal(o.answer.answerContent, '你好！我是DeepSeek，由深度求索公司打造的AI助手。');
    t.same(o.answer.referenceList, []);
    t.equal(o.answer.reasoningProcess, null);
  },
);

t.test('2025: a SEARCH fragment with cite_index, [citation:N]', async (t) => {
  const o = parse(t, '2025-search.txt');
  if ('error' in o) return t.fail(o.error);
  t.equal(o.formatVersion, 'deepseek-2025');
  t.equal(o.finished, true);
  t.equal(o.answer.answerContent, '销售易适合大中型企业[2]，纷享销客更灵活[3]。');
  t.same(
    o.answer.referenceList.map((r) => [r.index, r.site, r.icon]),
    [
      [1, '新华网', icon('www.news.cn')],
      [2, '36氪', icon('www.36kr.com')],
      [3, '知乎专栏', icon('zhuanlan.zhihu.com')],
    ],
  );
  t.same(
    o.answer.citationList.map((r) => r.index),
    [2, 3],
  );
});

t.test(
  'a stream cut before FINISHED: the text so far, not finished (the driver asks the page)',
  async (t) => {
    const o = parse(t, 'no-end.txt');
    if ('error' in o) return t.fail(o.error);
    t.equal(o.finished, false);
    t.equal(o.answer.answerContent, '上海今天多云');
  },
);

t.test('the rate-limit hint: cooling, retryable', async (t) => {
  const o = parse(t, 'rate-limit.txt');
  t.same(o, {
    error: 'rate or quota limit on deepseek: 消息发送过于频繁，请稍后再试。',
    status: 'error',
    retryable: true,
    account: 'cooling',
  });
});

t.test('a content-filter refusal: the template answer is the refusal', async (t) => {
  const o = parse(t, 'refusal.txt');
  if ('error' in o) return t.fail(o.error);
  t.equal(o.finished, true);
  t.equal(o.refusal, '你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。');
});

t.test('unknown fragment types and operations: unrecognised, final, no answer', async (t) => {
  t.same(parse(t, 'unknown-fragment.txt'), {
    error: 'unrecognised deepseek stream format: fragment type "TOOL_PYTHON"',
    status: 'failed',
    retryable: false,
    account: undefined,
  });
  t.same(parse(t, 'unknown-op.txt'), {
    error: 'unrecognised deepseek stream format: unknown patch operation "MERGE"',
    status: 'failed',
    retryable: false,
    account: undefined,
  });
});

t.test('unknown content no version sends is unrecognised too', async (t) => {
  const errorOf = (text: string) => {
    const o = run([new TextEncoder().encode(text)]);
    return 'error' in o ? o.error : 'no error';
  };
  t.equal(errorOf('event: toast\ndata: {}\n\n'), 'no error', 'an unknown event carries no content');
  t.match(errorOf('data: not json\n\n'), /not JSON/);
  t.match(
    errorOf(
      'data: {"v":{"response":{"fragments":[{"id":1,"kind":"RESPONSE","content":"x"}]}}}\n\n',
    ),
    /fragment type .*"kind":"RESPONSE"/,
    'a renamed `type` field is drift',
  );
  t.match(errorOf('data: {"p":"response/fragments/-1/content","v":"x"}\n\n'), /does not have/);
  const mixed =
    'data: {"v":{"response":{"fragments":[{"id":1,"type":"SEARCH","results":[]}]}}}\n\n' +
    'data: {"p":"response/fragments","o":"APPEND","v":[{"id":2,"type":"TOOL_OPEN"}]}\n\n';
  t.match(errorOf(mixed), /a TOOL_OPEN fragment in a 2025 stream/);
  t.match(
    errorOf('data: {"v":{"response":{"status":"PAUSED","fragments":[]}}}\n\n'),
    /response status "PAUSED"/,
  );
});

t.test(
  'chat-call envelopes: expired session, captcha, missing token, other refusals',
  async (t) => {
    const expired = chatCallFailure(200, fixture('expired.json'));
    t.equal(
      expired.message,
      'session expired: 40003 Authorization Failed (invalid token) (deepseek)',
    );
    t.same(
      [expired.status, expired.retryable, expired.account?.state],
      ['failed', true, 'needs_human'],
    );
    const captcha = chatCallFailure(200, fixture('captcha.json'));
    t.equal(captcha.message, 'captcha: 40301 HCAPTCHA_REQUIRED (deepseek)');
    t.equal(captcha.account?.state, 'needs_human');
    const wall = chatCallFailure(401, fixture('missing-token.json'));
    t.equal(wall.message, 'login wall: HTTP 401 on the chat call (40002 Missing Token) (deepseek)');
    t.equal(wall.account?.state, 'needs_human');
    t.equal(chatCallFailure(403, '<html>forbidden</html>').account?.state, 'needs_human');
    t.equal(
      chatCallFailure(429, '{"code":42900,"msg":"Too Many Requests"}').account?.state,
      'cooling',
    );
    const other = chatCallFailure(200, '{"code":40301,"msg":"INVALID_POW_RESPONSE"}');
    t.same([other.status, other.retryable, other.account], ['failed', true, undefined]);
  },
);

t.test(
  'the effective mode: the captured request body first, then the stream’s own flags',
  async (t) => {
    const empty = new DeepseekStream();
    const body = (think: boolean, search: boolean) =>
      JSON.stringify({ prompt: 'x', thinking_enabled: think, search_enabled: search });
    t.equal(effectiveMode(body(false, false), empty), 'standard');
    t.equal(effectiveMode(body(true, false), empty), 'reasoning');
    t.equal(effectiveMode(body(false, true), empty), 'search');
    t.equal(effectiveMode(body(true, true), empty), 'reasoning_search');
    const streamed = new DeepseekStream();
    streamed.feed(fixture('2026-reasoning-search.txt'));
    t.equal(effectiveMode(undefined, streamed), 'reasoning_search', 'no body: the snapshot flags');
    t.equal(effectiveMode(body(false, false), streamed), 'standard', 'the request wins');
    t.throws(() => effectiveMode('{}', empty), /names no thinking_enabled/);
  },
);

t.test('frames after FINISHED are kept, never applied: the answer stays exact', async (t) => {
  const stream = fixture('2026-standard.txt').replace(/\r\n/g, '\n');
  const end = 'data: {"p":"response/status","o":"SET","v":"FINISHED"}\n\n';
  t.ok(stream.includes(end), 'the fixture has its end marker');
  const late = [
    'event: finish\ndata: {}',
    'event: update_session\ndata: {"updated_at":1763900001.2}',
    'event: toast\ndata: {"content":"新的事件"}',
    'data: {"p":"response/fragments/-1/content","o":"APPEND","v":"多出来的字"}',
  ];
  const withLate = stream.replace(end, end + late.map((f) => `${f}\n\n`).join(''));
  const plain = run([new TextEncoder().encode(stream)]);
  const trailing = run([new TextEncoder().encode(withLate)]);
  if ('error' in plain || 'error' in trailing) return t.fail('expected two answers');
  t.same(trailing.answer, plain.answer, 'the exact answer');
  t.equal(trailing.finished, true);
  t.same(trailing.frames.slice(-late.length - 2, -2), late, 'the late frames are in the evidence');

  const toastFirst = stream.replace(end, `${late[2]}\n\n${end}`);
  const early = run([new TextEncoder().encode(toastFirst)]);
  if ('error' in early) return t.fail(early.error);
  t.same(early.answer, plain.answer, 'an unknown event before the end: the exact answer');
  const contentFirst = stream.replace(end, `${late[3]}\n\n${end}`);
  t.notOk('error' in run([new TextEncoder().encode(contentFirst)]), 'known content applies');
});

t.test('events and fields no version names are kept, not applied, and reported', async (t) => {
  const stream = fixture('2026-standard.txt').replace(/\r\n/g, '\n');
  const end = 'data: {"p":"response/status","o":"SET","v":"FINISHED"}\n\n';
  const extra = [
    'event: keep_alive\ndata: {}',
    'data: {"p":"response/usage/total_tokens","v":12}',
    'data: {"p":"response/status","o":"SET","v":"WIP","ts":1}',
  ];
  const p = new DeepseekStream();
  const withExtra = stream.replace(end, extra.map((f) => `${f}\n\n`).join('') + end);
  for (const e of p.push(withExtra)) p.apply(e);
  const plain = new DeepseekStream();
  plain.feed(stream);
  t.equal(p.finished, true);
  t.same(buildAnswer(p.result()), buildAnswer(plain.result()), 'the exact answer');
  t.same(p.report().ignored, ['event "keep_alive"', 'patch response/usage/total_tokens']);
  t.same(plain.report(), { thinking: false, search: false, ignored: [] });
  t.match(
    run([new TextEncoder().encode('data: {"p":"response/fragments/-1/text","v":"x"}\n\n')]),
    { error: /does not have|out of range/ },
    'a patch on the fragments that cannot be placed is drift',
  );
});

t.test('the response names its model: "" in the captures, none recorded', async (t) => {
  const captured = new DeepseekStream();
  captured.feed(fixture('2026-reasoning-search.txt'));
  t.equal(buildAnswer(captured.result()).modelReported, undefined, 'the capture names none');
  // No capture fills it: the name is this test's own.
  const named = new DeepseekStream();
  named.feed(fixture('2026-reasoning-search.txt').replace('"model":""', '"model":"deepseek-v3.2"'));
  t.equal(
    buildAnswer(named.result()).modelReported,
    'deepseek-v3.2',
    'a filled one is the model reported',
  );
});

t.test('the stream reports what ran: thinking frames, search results', async (t) => {
  const both = new DeepseekStream();
  both.feed(fixture('2026-reasoning-search.txt'));
  t.same(both.report(), { thinking: true, search: true, ignored: [] });
  const old = new DeepseekStream();
  old.feed(fixture('2025-search.txt'));
  t.equal(old.report().search, true, '2025: the SEARCH fragment results');
});
