/**
 * ChatGLM's chat stream parser: the replica's streams (each kind, each
 * mode), fed whole, cut at every byte and with CRLF line ends; the
 * cumulative snapshots taken as the last one and never added up (a
 * snapshot that shrinks, a part replaced by another, a longer snapshot
 * after the end); both documented formats with their version; hand-written
 * frames for what the replica does not send; and the chat call's JSON
 * errors, each the signal it means.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError, type WebAnswer } from '../../../../../crawler/platforms/types.js';
import { ZhipuStream } from '../../../../../crawler/platforms/zhipu/web/stream.js';
import { citeMarks, readSnapshot } from '../../../../../crawler/platforms/zhipu/web/snapshot.js';
import { chatCallFailure } from '../../../../../crawler/platforms/zhipu/web/envelope.js';
import { askedMode } from '../../../../../crawler/platforms/zhipu/web/mode.js';
import {
  chatFrames,
  DRAFT_PART,
  DRAFT_TAIL,
  LATE_TEXT,
  REFUSAL,
  type StreamKind,
} from '../../../../../replicas/zhipu/frames.js';
import { driftZhipuStream } from '../../../../../replicas/zhipu/stream-drift.js';
import { expectedWebAnswer, ranMode } from '../../../../../replicas/zhipu/expected.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';

const CID = '0123456789abcdef01234567';

function parse(chunks: readonly (string | Uint8Array)[]) {
  const p = new ZhipuStream();
  for (const c of chunks) p.feed(c);
  for (const e of p.end()) p.apply(e);
  return p;
}

const fieldsOf = (a: ReturnType<typeof buildAnswer>) => ({
  answerContent: a.answerContent,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoningProcess: a.reasoningProcess,
});
const want = (prompt: string, mode: Mode) => {
  const w: Partial<WebAnswer> = expectedWebAnswer(prompt, mode);
  return {
    answerContent: w.answerContent,
    referenceList: w.referenceList,
    citationList: w.citationList,
    reasoningProcess: w.reasoningProcess,
  };
};

const KINDS: readonly StreamKind[] = [
  'normal',
  'old_format',
  'shrinking_snapshot',
  'replaced_part',
  'late_events',
  'early_events',
  'unknown_frame',
];

t.test('every kind in every mode: the exact answer, the mode that ran, the format', async (t) => {
  for (const kind of KINDS)
    for (const mode of MODES) {
      const prompt = `储能电池 #replica:${kind}`;
      const p = parse(chatFrames(prompt, mode, kind, CID));
      const label = `${kind}, ${mode}`;
      t.ok(p.finished, `${label}: finished`);
      t.same(fieldsOf(buildAnswer(p.result())), want(prompt, mode), `${label}: exact`);
      const ran = p.ran();
      t.equal(
        ran.thinking
          ? ran.search
            ? 'reasoning_search'
            : 'reasoning'
          : ran.search
            ? 'search'
            : 'standard',
        ranMode(prompt, mode),
        `${label}: the mode that ran`,
      );
      t.equal(p.formatVersion, expectedWebAnswer(prompt, mode).formatVersion, `${label}: version`);
      t.equal(p.conversationId, CID, `${label}: the conversation`);
      t.same(p.report().unplaced, undefined, `${label}: nothing unplaced`);
    }
});

t.test('bytes cut anywhere and CRLF line ends give the same answer', async (t) => {
  const frames = chatFrames('储能电池', 'reasoning_search', 'normal', CID);
  const whole = fieldsOf(buildAnswer(parse(frames).result()));
  const bytes = Buffer.from(frames.join('').replace(/\n/g, '\r\n'));
  const oneByOne = parse([...bytes].map((b) => Uint8Array.of(b)));
  t.same(fieldsOf(buildAnswer(oneByOne.result())), whole, 'byte by byte, CRLF');
  for (const at of [1, 17, 333, bytes.length - 3]) {
    const p = parse([bytes.subarray(0, at), bytes.subarray(at)]);
    t.same(fieldsOf(buildAnswer(p.result())), whole, `cut at ${at}`);
  }
});

t.test(
  'snapshots are the answer so far: the last one wins, none is added to another',
  async (t) => {
    const frames = chatFrames('储能电池', 'reasoning_search', 'normal', CID);
    const p = parse(frames);
    t.ok(p.snapshots > 10, `${p.snapshots} snapshots`);
    // Concatenating the snapshots would repeat the opening many times over.
    const opening = '「储能电池」概览';
    t.equal(p.result().content.split(opening).length - 1, 1, 'the opening once');
    t.equal(p.result().reasoningContent.split('用户想了解').length - 1, 1, 'the thought once');

    const shrinking = parse(chatFrames('储能电池', 'search', 'shrinking_snapshot', CID));
    t.notOk(
      shrinking.result().content.includes(DRAFT_TAIL),
      'a tail the next snapshot dropped is gone',
    );

    const replaced = parse(chatFrames('储能电池', 'search', 'replaced_part', CID));
    t.notOk(
      replaced.result().content.includes(DRAFT_PART),
      'a part the later snapshots replaced is gone',
    );

    const late = parse(chatFrames('储能电池', 'search', 'late_events', CID));
    t.notOk(
      late.result().content.includes(LATE_TEXT),
      'a snapshot after the finish frame is not applied',
    );
    t.equal(late.trailing, 1, 'and is counted as trailing');

    // By hand: a snapshot that replaces a part's text with a shorter one, and drops a part.
    const frame = (parts: unknown[], status = 'init') =>
      `data: ${JSON.stringify({ conversation_id: CID, parts, status })}\n\n`;
    const text = (logic: string, s: string) => ({
      logic_id: logic,
      content: [{ type: 'text', text: s }],
    });
    const hand = parse([
      frame([text('a', '第一版很长的回答'), text('b', '附注')]),
      frame([text('a', '第二版')]),
      frame([text('c', '最终回答')], 'finish'),
    ]);
    t.equal(hand.result().content, '最终回答', 'the last snapshot alone');
  },
);

t.test('the end, a refusal, a missing end, frames that carry nothing', async (t) => {
  const refusal = parse(chatFrames('x #replica:refusal', 'standard', 'refusal', CID));
  t.ok(refusal.finished, 'intervene ends the stream');
  t.equal(refusal.result().refusal, REFUSAL);
  t.equal(refusal.result().content, '', 'no answer text');

  const noEnd = parse(chatFrames('储能电池', 'search', 'no_end', CID));
  t.notOk(noEnd.finished, 'no finish frame: not complete');

  const early = parse(
    chatFrames('储能电池 #replica:early_events', 'standard', 'early_events', CID),
  );
  t.match(early.report().ignored, ['a frame without parts or status']);

  const card = parse(chatFrames('储能电池', 'standard', 'unknown_frame', CID));
  t.match(card.report().ignored, [/mind_map/], 'an unknown item without text is ignored');
});

t.test('the generated stream drifts in snapshot frames', async (t) => {
  const base = chatFrames('储能电池', 'reasoning_search', 'normal', CID);
  const exact = want('储能电池', 'reasoning_search');
  const sentinels = parse(driftZhipuStream(base, 'empty_sentinels'));
  t.same(fieldsOf(buildAnswer(sentinels.result())), exact, 'sentinels: the exact answer');
  t.same(sentinels.report().unplaced, undefined);
  for (const d of ['unknown_content_frame', 'renamed_fields'] as const) {
    const p = parse(driftZhipuStream(base, d));
    t.ok(p.finished, `${d}: finished`);
    t.ok(p.report().unplaced?.length, `${d}: text it cannot place is reported`);
    t.not(
      buildAnswer(p.result()).answerContent,
      exact.answerContent,
      `${d}: the stream alone is short`,
    );
  }
});

t.test('not JSON is format drift; citations by key and by position', async (t) => {
  t.throws(() => parse(['data: <html>\n\n']), /unrecognised zhipu stream format/);
  const sources = readSnapshot([
    {
      content: [{ type: 'tool_result' }],
      meta_data: {
        tool_result_extra: {
          search_results: [
            { title: 'A', url: 'https://a.example/1', match_key: 'turn0search0' },
            { title: 'B', url: 'https://b.example/2', match_key: 'turn0search1' },
            { title: 'no url', match_key: 'turn0search2' },
          ],
        },
      },
    },
  ]).sources;
  t.equal(sources.length, 2, 'a result without a URL is no source');
  t.equal(citeMarks('甲【turn0search1】乙【turn0search9】', sources), '甲[2]乙', 'by match_key');
  t.equal(
    citeMarks('甲【1†来源】乙【0†source】丙【7†来源】', sources),
    '甲[2]乙[1]丙',
    'by position',
  );
});

t.test('the mode the chat call asked for', async (t) => {
  const body = (meta: object) => JSON.stringify({ meta_data: meta });
  t.equal(askedMode(body({ is_networking: false })), 'standard');
  t.equal(askedMode(body({ chat_mode: 'zero', is_networking: false })), 'reasoning');
  t.equal(askedMode(body({ is_networking: true })), 'search');
  t.equal(askedMode(body({ chat_mode: 'zero', is_networking: true })), 'reasoning_search');
  t.equal(askedMode('{}'), undefined);
  t.equal(askedMode('not json'), undefined);
});

t.test("the chat call's errors, each its signal", async (t) => {
  const of = (status: number, body: unknown) => {
    const e = chatCallFailure(status, JSON.stringify(body));
    t.type(e, PlatformError);
    return { message: e.message, account: e.account?.state, retryable: e.retryable };
  };
  t.match(of(401, { code: 40102, message: '登录已过期' }), {
    message: /^login wall: HTTP 401/,
    account: 'needs_human',
  });
  t.match(of(200, { code: 10025, message: '请完成安全验证' }), {
    message: /^captcha: /,
    account: 'needs_human',
  });
  t.match(of(429, { code: 10029, message: '请求过于频繁' }), { account: 'cooling' });
  t.match(of(200, { code: 10014, message: '今日对话次数已达上限' }), { account: 'cooling' });
  const busy = chatCallFailure(
    200,
    JSON.stringify({ code: 10035, message: '上一个回答正在生成中' }),
  );
  t.match(busy.message, /one live stream per account/);
  t.equal(busy.account?.state, 'cooling', 'the account cools');
  t.equal(busy.retryAfterSeconds, 60, 'briefly: the other stream ends soon');
  t.match(of(400, { code: 400, message: 'bad signature' }), {
    message: /refused the chat call: HTTP 400/,
    account: undefined,
  });
});
