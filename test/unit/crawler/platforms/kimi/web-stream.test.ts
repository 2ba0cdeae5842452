/**
 * The Kimi stream parser against recorded-format fixtures (test/fixtures/web/
 * kimi/, modelled on the public sources named in connect-format.ts and
 * legacy-format.ts): each is fed cut at every byte, and byte by byte, and
 * must give the same answer state or the same failure every time.
 */
import t from 'tap';
import { connectEnvelope as envelope } from '../../../../helpers/connect-envelope.js';
import { readFileSync } from 'node:fs';
import { KimiStreamParser } from '../../../../../crawler/platforms/kimi/web/stream.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import { effectiveMode } from '../../../../../crawler/platforms/kimi/web/request-mode.js';
import { ROOT } from '../../../../../infra/processes.js';
import { join } from 'node:path';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/web/kimi', name)));

/** The assertions everyCut makes on the test it runs in. */
type Checks = Pick<typeof t, 'ok' | 'fail' | 'same'>;

interface Outcome {
  format?: string;
  done?: boolean;
  frames?: number;
  raw?: ReturnType<KimiStreamParser['raw']>;
  report?: ReturnType<KimiStreamParser['report']>;
  error?: { message: string; status: string; retryable: boolean; account?: string };
}

function run(chunks: Uint8Array[], mimeType?: string): Outcome {
  const frames: (string | Uint8Array)[] = [];
  const parser = new KimiStreamParser({ mimeType, onFrame: (f) => frames.push(f) });
  try {
    for (const c of chunks) parser.push(c);
    parser.end();
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return {
      error: {
        message: err.message,
        status: err.status,
        retryable: err.retryable,
        account: err.account?.state,
      },
    };
  }
  return {
    format: parser.formatVersion,
    done: parser.done,
    frames: frames.length,
    raw: parser.raw(),
    report: parser.report(),
  };
}

/** The outcome of the whole body, checked to be the same at every cut and byte by byte. */
function everyCut(t: Checks, name: string, mimeType?: string): Outcome {
  const bytes = fixture(name);
  const whole = run([bytes], mimeType);
  let same = true;
  for (let cut = 1; cut < bytes.length && same; cut++) {
    const outcome = run([bytes.subarray(0, cut), bytes.subarray(cut)], mimeType);
    same = JSON.stringify(outcome) === JSON.stringify(whole);
    if (!same) t.fail(`${name}: cut at byte ${cut} differs`);
  }
  t.ok(same, `${name}: the same at all ${bytes.length - 1} cuts`);
  const single = run(
    Array.from(bytes, (b) => Uint8Array.of(b)),
    mimeType,
  );
  t.same(single, whole, `${name}: the same byte by byte`);
  return whole;
}

t.test(
  'kimi-connect-1: reasoning, search results, cited subset, follow-ups, end marker',
  async (t) => {
    const o = everyCut(t, 'connect-reasoning-search.bin');
    t.equal(o.format, 'kimi-connect-1');
    t.equal(o.done, true);
    t.equal(o.frames, 20, 'every envelope reported as a frame');
    const a = buildAnswer(o.raw!);
    t.equal(
      a.answerContent,
      '10月国内新能源乘用车零售约 **128 万辆**[^1^]，同比增长 21%[^2^]。\n\n- 渗透率首次超过 60%[^3^]\n- 插混增速快于纯电',
    );
    t.equal(a.reasoningProcess?.content, '用户问的是十月的新能源车销量，我需要查最新数据。');
    t.same(
      a.referenceList.map((r) => [r.index, r.site, r.icon.split('/').at(-1)]),
      [
        [1, '汽车之家', 'www.autohome.com.cn'],
        [2, '乘联会', 'www.cpcaauto.com'],
        [3, '新浪财经', 'finance.sina.com.cn'],
      ],
    );
    t.same(
      a.citationList.map((r) => r.index),
      [1, 2, 3],
    );
    t.same(a.recommendedQuestions, ['哪些品牌销量最高？', '渗透率还会继续上升吗？']);
  },
);

t.test(
  'kimi-connect-1: a plain answer, recognised from the first byte or the MIME type',
  async (t) => {
    for (const mime of [undefined, 'application/connect+json']) {
      const o = everyCut(t, 'connect-standard.bin', mime);
      t.equal(o.format, 'kimi-connect-1');
      t.equal(o.done, true);
      const a = buildAnswer(o.raw!);
      t.equal(a.answerContent, '你好！我是 Kimi，有什么可以帮你？');
      t.same(a.referenceList, []);
      t.equal(a.reasoningProcess, null);
    }
  },
);

t.test('kimi-connect-1: a stream cut before its end marker is not done', async (t) => {
  const o = everyCut(t, 'connect-truncated.bin');
  t.equal(o.done, false);
  t.equal(o.raw?.content, '没有结束标记的回答');
});

const failures: [string, RegExp, string, boolean, string | undefined][] = [
  [
    'connect-expired.bin',
    /session expired or invalid \(unauthenticated/,
    'failed',
    true,
    'needs_human',
  ],
  ['connect-captcha.bin', /verification challenge/, 'failed', true, 'needs_human'],
  [
    'connect-rate-limit.bin',
    /rate or quota limit on kimi: 当前长文本对话次数已达上限/,
    'error',
    true,
    'cooling',
  ],
  [
    'legacy-auth-error.txt',
    /session expired or invalid \(auth\.token\.invalid/,
    'failed',
    true,
    'needs_human',
  ],
];
for (const [name, message, status, retryable, account] of failures) {
  t.test(`${name}: the site's signal, never an answer`, async (t) => {
    const o = everyCut(t, name);
    t.equal(o.raw, undefined);
    t.match(o.error?.message, message);
    t.equal(o.error?.status, status);
    t.equal(o.error?.retryable, retryable);
    t.equal(o.error?.account, account);
  });
}

t.test('unknown frames: skipped without text, reported as not applied with it', async (t) => {
  const widget = everyCut(t, 'connect-unknown-frame.bin');
  t.equal(widget.error, undefined, 'a block.widget frame without text: kept and skipped');
  t.ok(widget.report?.ignored.includes('frame mask "block.widget"'));
  t.equal(widget.report?.unplaced, undefined);
  const legacy = everyCut(t, 'legacy-unknown-event.txt', 'text/event-stream');
  t.equal(legacy.error, undefined);
  t.same(
    legacy.report?.unplaced,
    ['legacy event "k3_toolcall" with text in "text"'],
    'for the witnesses',
  );
});

t.test('refusals: the blocked message and the legacy error without a type', async (t) => {
  t.equal(everyCut(t, 'connect-refusal.bin').raw?.refusal, '抱歉，这个问题我暂时无法回答');
  const legacy = everyCut(t, 'legacy-refusal.txt');
  t.equal(legacy.raw?.refusal, '内容由于不合规被停止生成');
  t.equal(legacy.done, true);
});

t.test('kimi-sse-legacy: cmpl text, get_res results with CRLF line ends, all_done', async (t) => {
  const o = everyCut(t, 'legacy-search.txt', 'text/event-stream');
  t.equal(o.format, 'kimi-sse-legacy');
  t.equal(o.done, true);
  t.equal(o.frames, 12);
  const a = buildAnswer(o.raw!);
  t.equal(
    a.answerContent,
    '杭州亚运会于 2023 年 10 月 8 日闭幕[^2^]，中国代表团获得 201 枚金牌[^1^]。',
  );
  t.same(
    a.referenceList.map((r) => [r.index, r.site, r.icon]),
    [
      [1, '百度百科', 'https://statics.moonshot.cn/kimi-chat/favicons/baike.baidu.com.png'],
      [2, 'xinhuanet.com', ''],
    ],
  );
  t.same(
    a.citationList.map((r) => r.index),
    [1, 2],
  );
});

t.test('a body in neither format is refused', async (t) => {
  const o = run([new TextEncoder().encode('<!doctype html><title>Just a moment...</title>')]);
  t.match(o.error?.message, /unrecognised kimi stream format: a body starting with byte 0x3c/);
});

t.test(
  'effective mode from the request the page sent (Connect as CDP reports it, legacy JSON)',
  async (t) => {
    const envelope = (json: unknown) => {
      const p = Buffer.from(JSON.stringify(json));
      const h = Buffer.alloc(5);
      h.writeUInt32BE(p.length, 1);
      return Buffer.concat([h, p]).toString('latin1');
    };
    const prompt = { role: 'user', blocks: [{ text: { content: '长'.repeat(60) } }] };
    t.equal(
      effectiveMode(
        envelope({
          tools: [{ type: 'TOOL_TYPE_SEARCH', search: {} }],
          message: prompt,
          options: { thinking: true },
        }),
      ),
      'reasoning_search',
    );
    t.equal(
      effectiveMode(envelope({ tools: [], message: prompt, options: { thinking: false } })),
      'standard',
    );
    t.equal(
      effectiveMode(envelope({ tools: [{ type: 'TOOL_TYPE_SEARCH' }], message: prompt })),
      'search',
    );
    t.equal(
      effectiveMode(JSON.stringify({ use_search: false, kimiplus_id: 'crm40ee9e5jvhsn7ptcg' })),
      'reasoning',
    );
    t.equal(effectiveMode(JSON.stringify({ use_search: true, kimiplus_id: 'kimi' })), 'search');
    t.throws(() => effectiveMode(undefined), /unrecognised kimi stream format/);
  },
);

t.test('frames after the end marker are kept, never applied: the answer stays exact', async (t) => {
  const connect = fixture('connect-standard.bin');
  const lateConnect = [
    envelope({ op: 'set', mask: 'chat.title', chat: { title: '自我介绍' } }),
    envelope({ op: 'append', mask: 'block.text', block: { text: { content: '多出来的字' } } }),
  ];
  const plain = run([connect]);
  const trailing = run([connect, ...lateConnect]);
  t.same(trailing.raw, plain.raw, 'Connect: the exact answer');
  t.equal(trailing.frames, (plain.frames ?? 0) + lateConnect.length, 'Connect: kept as frames');

  const legacy = fixture('legacy-search.txt');
  const late = new TextEncoder().encode(
    'data: {"event":"finish","text":""}\n\ndata: {"event":"cmpl","text":"多出来的字"}\n\n',
  );
  const plainLegacy = run([legacy], 'text/event-stream');
  const trailingLegacy = run([legacy, late], 'text/event-stream');
  t.same(trailingLegacy.raw, plainLegacy.raw, 'legacy: the exact answer');
  t.equal(trailingLegacy.frames, (plainLegacy.frames ?? 0) + 2, 'legacy: kept as frames');

  const text = new TextDecoder().decode(legacy);
  const early = new TextEncoder().encode(
    text.replace(
      'data: {"event":"all_done"}',
      'data: {"event":"finish","text":""}\n\ndata: {"event":"all_done"}',
    ),
  );
  const kept = run([early], 'text/event-stream');
  t.equal(kept.error, undefined, 'an unknown event without text before the end is kept');
  t.same(kept.raw, plainLegacy.raw, 'the exact answer');
  const withText = text.replace(
    'data: {"event":"all_done"}',
    'data: {"event":"finish","text":"字"}\n\ndata: {"event":"all_done"}',
  );
  t.same(run([new TextEncoder().encode(withText)], 'text/event-stream').report?.unplaced, [
    'legacy event "finish" with text in "text"',
  ]);
});
