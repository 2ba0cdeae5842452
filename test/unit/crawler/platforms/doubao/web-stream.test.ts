/**
 * Doubao's stream parser on recorded-format fixtures (test/fixtures/web/doubao/,
 * modelled on the frames the public projects recorded), each fed cut at every
 * byte: the same answer, the same error, whatever the cut.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { DoubaoStream } from '../../../../../crawler/platforms/doubao/web/stream.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import type { Answer } from '../../../../../services/shared/contracts/answer.js';
import { ROOT } from '../../../../../infra/processes.js';
import { join } from 'node:path';

const fixture = (name: string) => readFileSync(join(ROOT, 'test/fixtures/web/doubao', name));

interface Run {
  answer?: Answer;
  error?: PlatformError;
  version?: string;
  done: boolean;
  frames: string[];
  report?: ReturnType<DoubaoStream['report']>;
}

/** Parses `bytes` cut once at `cut`: pushes both halves, ends, builds the answer. */
function run(bytes: Buffer, cut: number): Run {
  const frames: string[] = [];
  const s = new DoubaoStream((f) => frames.push(f));
  try {
    s.push(bytes.subarray(0, cut));
    s.push(bytes.subarray(cut));
    s.end();
    return { answer: s.result(), version: s.version, done: s.done, frames, report: s.report() };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return { error: err, version: s.version, done: s.done, frames };
  }
}

/** Every cut gives the first cut's result; returns it. */
function atEveryCut(t: { equal(a: unknown, b: unknown, m: string): unknown }, name: string): Run {
  const bytes = fixture(name);
  const first = run(bytes, 0);
  let differing = 0;
  for (let cut = 1; cut <= bytes.length; cut++) {
    const r = run(bytes, cut);
    const same =
      JSON.stringify(r.answer) === JSON.stringify(first.answer) &&
      r.error?.message === first.error?.message &&
      r.version === first.version &&
      r.done === first.done;
    if (!same) differing++;
  }
  t.equal(differing, 0, `${name}: every one of ${bytes.length + 1} cuts gives the same result`);
  return first;
}

t.test(
  '2026: deep think + web search → answer, reasoning, sources, video, follow-ups',
  async (t) => {
    const r = atEveryCut(t, '2026-reasoning-search.txt');
    t.equal(r.version, 'doubao-2026');
    t.equal(r.done, true);
    t.same(r.answer, {
      answerContent:
        '上海带娃可以去这几处：\n\n1. **上海自然博物馆**：恐龙骨架和生态展；\n2. **上海科技馆**：互动展项多，适合 6 岁以上。',
      referenceList: [
        {
          index: 1,
          title: '上海亲子游好去处',
          url: 'https://www.shanghai.gov.cn/nw4411/qinzi.html',
          site: '上海发布',
          icon: 'https://p3-search.byteimg.com/img/labis/shfb~32x32.image',
        },
        {
          index: 2,
          title: '上海科技馆参观指南',
          url: 'https://www.sstm.org.cn/visit',
          site: '上海科技馆',
          icon: 'https://p3-search.byteimg.com/img/labis/sstm~32x32.image',
        },
        {
          index: 3,
          title: '上海自然博物馆一日游',
          url: 'https://www.douyin.com/video/7412345678901234567',
          site: '抖音',
          icon: '',
        },
      ],
      citationList: [
        {
          index: 1,
          title: '上海亲子游好去处',
          url: 'https://www.shanghai.gov.cn/nw4411/qinzi.html',
          site: '上海发布',
          icon: 'https://p3-search.byteimg.com/img/labis/shfb~32x32.image',
        },
        {
          index: 2,
          title: '上海科技馆参观指南',
          url: 'https://www.sstm.org.cn/visit',
          site: '上海科技馆',
          icon: 'https://p3-search.byteimg.com/img/labis/sstm~32x32.image',
        },
        {
          index: 3,
          title: '上海自然博物馆一日游',
          url: 'https://www.douyin.com/video/7412345678901234567',
          site: '抖音',
          icon: '',
        },
      ],
      reasoningProcess: {
        summary: '用户想找适合亲子的地方，先搜一下上海的亲子场馆。',
        content: '用户想找适合亲子的地方，先搜一下上海的亲子场馆。',
      },
      recommendedQuestions: ['上海自然博物馆要预约吗？', '周末带娃去哪里人少？'],
      mediaContent: [
        {
          type: 'video',
          url: 'https://www.douyin.com/video/7412345678901234567',
          title: '上海自然博物馆一日游',
          thumbnail: 'https://p9-sign.douyinpic.com/cover-7412.jpeg',
        },
      ],
    });
    t.equal(r.frames.length, 14, 'every SSE event is handed to the evidence');
    t.match(r.frames[1], /^id: 1\nevent: FULL_MSG_NOTIFY\ndata: \{/);
  },
);

t.test('2026: CRLF, heartbeats, CHUNK_DELTA and patch 102 text; no search', async (t) => {
  const r = atEveryCut(t, '2026-standard-crlf.txt');
  t.equal(r.version, 'doubao-2026');
  t.equal(r.done, true);
  t.equal(r.answer?.answerContent, '番茄炒蛋：先炒蛋，再下番茄，最后加盐和糖。');
  t.same(r.answer?.referenceList, []);
  t.equal(r.answer?.reasoningProcess, null);
  t.same(r.answer?.recommendedQuestions, []);
});

t.test('samantha (older) format: text deltas, follow-ups, end event 2003', async (t) => {
  const r = atEveryCut(t, 'samantha.txt');
  t.equal(r.version, 'doubao-samantha');
  t.equal(r.done, true);
  t.equal(r.answer?.answerContent, '番茄炒蛋：先炒蛋，再下番茄。');
  t.same(r.answer?.recommendedQuestions, ['番茄要去皮吗？', '放糖还是放盐？']);
  t.same(r.answer?.referenceList, []);
});

t.test(
  'a stream without its end marker is not done (the driver falls back to the DOM)',
  async (t) => {
    const r = atEveryCut(t, '2026-no-end.txt');
    t.equal(r.done, false);
    t.equal(r.answer?.answerContent, '答案写到一半');
  },
);

const signals: [string, RegExp, string, boolean, string | undefined][] = [
  ['2026-expired.txt', /expired session: 710012000 user invalid/, 'failed', true, 'needs_human'],
  ['2026-captcha.txt', /captcha: 710022004 rate limited \(verify\)/, 'failed', true, 'needs_human'],
  [
    'samantha-captcha.txt',
    /captcha: 710022004 rate limited: 系统错误/,
    'failed',
    true,
    'needs_human',
  ],
  ['2026-rate-limit.txt', /rate or quota limit on doubao: 710022002/, 'error', true, 'cooling'],
  ['2026-refusal.txt', /doubao refused to answer: .*换个话题/, 'failed', false, undefined],
  [
    'samantha-unknown-frame.txt',
    /unrecognised doubao stream format: event_type 2077/,
    'failed',
    false,
    undefined,
  ],
];

for (const [name, message, status, retryable, account] of signals) {
  t.test(`${name} → ${message.source}`, async (t) => {
    const r = atEveryCut(t, name);
    t.equal(r.answer, undefined, 'no answer');
    t.match(r.error?.message, message);
    t.equal(r.error?.status, status);
    t.equal(r.error?.retryable, retryable);
    t.equal(r.error?.account?.state, account);
  });
}

t.test('a frame of the other format in a recognised stream is unrecognised', async (t) => {
  const s = new DoubaoStream();
  s.push('event: SSE_ACK\ndata: {}\n\n');
  t.throws(
    () => s.push('data: {"event_type":2003,"event_data":"{}","event_id":"1"}\n\n'),
    /unrecognised doubao stream format: a doubao-samantha frame in a doubao-2026 stream/,
  );
});

t.test('unnamed data that is not a samantha frame is unrecognised', async (t) => {
  const s = new DoubaoStream();
  t.throws(() => s.push('data: {"choices":[]}\n\n'), /unrecognised doubao stream format: frame/);
});

t.test('frames after SSE_REPLY_END are kept, never applied: the answer stays exact', async (t) => {
  const stream = fixture('2026-standard-crlf.txt').toString('utf8');
  const end = 'event: SSE_REPLY_END\r\ndata: {"end_type":3}\r\n\r\n';
  t.ok(stream.endsWith(end), 'the fixture ends with its end marker');
  const late = [
    'id: 10\nevent: SSE_HEARTBEAT\ndata: {}',
    'id: 11\nevent: MESSAGE_META_UPDATE\ndata: {"title":"番茄炒蛋"}',
    'id: 12\nevent: STREAM_CHUNK\ndata: {"patch_op":[{"patch_object":1,"patch_value":{"content_block":[{"block_id":"x","block_type":10000,"content":{"text_block":{"text":"多出来的字"}}}]}}]}',
  ];
  const plain = run(Buffer.from(stream), 0);
  const trailing = run(Buffer.from(stream + late.map((f) => `${f}\n\n`).join('')), 0);
  t.equal(trailing.error, undefined);
  t.same(trailing.answer, plain.answer, 'the exact answer');
  t.same(trailing.frames.slice(-late.length), late, 'the late frames are in the evidence');

  const early = run(Buffer.from(stream.replace(end, `${late[1]}\n\n${end}`)), 0);
  t.equal(early.error, undefined, 'an unknown event without content before the end: kept');
  t.same(early.answer, plain.answer, 'the exact answer');
  const withContent = late[1]!.replace('{"title"', '{"text":"字","title"');
  const drift = run(Buffer.from(stream.replace(end, `${withContent}\n\n${end}`)), 0);
  t.equal(drift.error, undefined, 'an unknown event with text before the end: for the witnesses');
  t.same(drift.report?.unplaced, ['event "MESSAGE_META_UPDATE" with text in "text"'], 'reported');
});

t.test('2026-unknown-frame.txt: an unknown event without text is kept and skipped', async (t) => {
  const r = atEveryCut(t, '2026-unknown-frame.txt');
  t.equal(r.error, undefined);
  t.ok(r.answer && r.answer.answerContent !== '', 'the answer');
  t.same(r.report?.ignored, ['event "STREAM_PLAN_NOTIFY"'], 'in the evidence, not applied');
  t.equal(r.report?.unplaced, undefined, 'nothing unplaced');
});

t.test(
  'STREAM_CHUNK_V2 (issue 29): its text is reported as not applied, never dropped',
  async (t) => {
    const s = new DoubaoStream();
    const v2 = { delta_ops: [{ op: 'append', block_id: 'a', text: '**佳能 R50**：机身小' }] };
    s.push(
      chunks(text('a', { text_block: { text: '' } })).replace(
        'event: SSE_REPLY_END',
        `event: STREAM_CHUNK_V2\ndata: ${JSON.stringify(v2)}\n\nevent: SSE_REPLY_END`,
      ),
    );
    t.ok(s.done);
    t.same(s.report().unplaced, ['event "STREAM_CHUNK_V2" with text in "delta_ops.0.text"']);
  },
);

t.test(
  'frames without content are skipped: empty deltas, patches and unknown events',
  async (t) => {
    const s = new DoubaoStream();
    s.push('event: SSE_ACK\ndata: {}\n\nevent: CHUNK_DELTA\ndata: {}\n\n');
    s.push(
      'event: STREAM_CHUNK\ndata: {"patch_op":[]}\n\nevent: NEW_HEARTBEAT\ndata: {"seq":1}\n\n',
    );
    s.push(chunks(text('a', { text_block: { text: '答案。' } })));
    t.equal(s.result().answerContent, '答案。');
    t.equal(s.report().unplaced, undefined);
  },
);

/** A 2026 stream of the given STREAM_CHUNK patch values, ended. */
function chunks(...patches: unknown[]): string {
  const frames = patches.map(
    (p) => `event: STREAM_CHUNK\ndata: ${JSON.stringify({ patch_op: [p] })}\n\n`,
  );
  return `event: SSE_ACK\ndata: {}\n\n${frames.join('')}event: SSE_REPLY_END\ndata: {"end_type":3}\n\n`;
}
const text = (id: string, body: unknown, parent = '') => ({
  patch_object: 1,
  patch_value: {
    content_block: [{ block_id: id, block_type: 10000, parent_id: parent, content: body }],
  },
});

t.test(
  'fields that arrive elsewhere: sp_v2 follow-ups, the reasoning summary, icon_url',
  async (t) => {
    const s = new DoubaoStream();
    s.push(
      chunks(
        {
          patch_object: 1,
          patch_value: { content_block: [{ block_id: 'th', block_type: 10040 }] },
        },
        text('r1', { text_block: { text: '先想一想。', summary: '思考' } }, 'th'),
        text('r1', { text_block: { text: '再想。', summary: '思考番茄炒蛋的做法' } }, 'th'),
        {
          patch_object: 1,
          patch_value: {
            content_block: [
              {
                block_id: 's',
                block_type: 10025,
                content: {
                  search_query_result_block: {
                    results: [
                      {
                        text_card: {
                          url: 'https://a.example/1',
                          title: 'A',
                          index: 1,
                          icon_url: 'https://a.example/i.png',
                        },
                      },
                    ],
                  },
                },
              },
            ],
          },
        },
        text('a', { text_block: { text: '答案。' } }),
        { patch_object: 50, patch_value: { ext: { sp_v2: '["怎么挑番茄？"' } } },
        { patch_object: 50, patch_value: { ext: { sp_v2: '["怎么挑番茄？","要放糖吗？"]' } } },
        { patch_object: 77, patch_value: { timer: 1 } },
      ),
    );
    t.ok(s.done);
    const a = s.result();
    t.same(a.recommendedQuestions, ['怎么挑番茄？', '要放糖吗？'], 'the last whole sp_v2 list');
    t.equal(a.reasoningProcess?.summary, '思考番茄炒蛋的做法', "the site's own summary");
    t.equal(a.reasoningProcess?.content, '先想一想。再想。');
    t.equal(a.referenceList[0]?.icon, 'https://a.example/i.png');
    t.same(s.report(), { thinking: true, search: true, ignored: ['patch_object 77'] });
  },
);

t.test(
  'a renamed content field is reported as not applied, never a silently shorter answer',
  async (t) => {
    const s = new DoubaoStream();
    s.push(chunks(text('a', { textBlock: { text: '答案。' } })));
    t.same(s.report().unplaced, ['a text block with text in "textBlock.text"']);
    const r = new DoubaoStream();
    r.push(chunks(text('a', { text_block: { markdown: '答案。' } })));
    t.same(r.report().unplaced, ['a text block with text in "text_block.markdown"']);
    t.equal(r.result().answerContent, '', 'nothing assembled: the witnesses decide');
  },
);
