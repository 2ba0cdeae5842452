/**
 * Yiyan's chat stream parser over every frame shape: the replica's streams
 * (each kind, each mode, both formats), fed whole, cut at every byte and
 * byte by byte with CRLF line ends; hand-written frames for what the replica
 * does not send; the chat call's `{code, msg, data}` errors, each the signal
 * it means; and the mode the request body asked.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError, type WebAnswer } from '../../../../../crawler/platforms/types.js';
import { WenxinStream } from '../../../../../crawler/platforms/wenxin/web/stream.js';
import {
  chatCallFailure,
  untilBeijingMidnight,
} from '../../../../../crawler/platforms/wenxin/web/envelope.js';
import { askedMode } from '../../../../../crawler/platforms/wenxin/web/mode.js';
import {
  chatFrames,
  frame,
  REFUSAL,
  type StreamKind,
} from '../../../../../replicas/wenxin/frames.js';
import { expectedWebAnswer, modelFor } from '../../../../../replicas/wenxin/expected.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';

const IDS = { sessionId: 's-1', chatId: 'c-1' };

function parse(chunks: readonly (string | Uint8Array)[]) {
  const p = new WenxinStream();
  for (const c of chunks) p.feed(c);
  for (const e of p.end()) p.apply(e);
  return p;
}

function failure(chunks: readonly string[]) {
  try {
    parse(chunks);
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  return undefined;
}

const frames = (prompt: string, mode: Mode, kind: StreamKind) =>
  chatFrames(prompt, mode, modelFor(mode), kind, IDS);

/** The fields the parser gives (the mode, the witness and the model label are the kit's). */
const expectedFields = (prompt: string, mode: Mode) => {
  const fields: Partial<WebAnswer> = { ...expectedWebAnswer(prompt, mode) };
  delete fields.effectiveMode;
  delete fields.formatVersion;
  delete fields.answerSource;
  delete fields.modelReported;
  return fields;
};

t.test('every mode, both formats: the exact fields, the end seen, the format named', async (t) => {
  for (const [kind, format] of [
    ['normal', 'yiyan-2026'],
    ['tokens_all', 'yiyan-2024'],
  ] as const) {
    for (const mode of MODES) {
      const p = parse(frames('新能源汽车', mode, kind));
      t.same(buildAnswer(p.result()), expectedFields('新能源汽车', mode), `${kind} ${mode}`);
      t.equal(p.finished, true, `${kind} ${mode}: is_end seen`);
      t.equal(p.formatVersion, format, `${kind} ${mode}: ${format}`);
      t.same(
        p.ran(),
        { thinking: mode.startsWith('reasoning'), search: mode.includes('search') },
        `${kind} ${mode}: what ran`,
      );
    }
  }
});

t.test('cut at every byte, and byte by byte, with CRLF line ends: the same answer', async (t) => {
  const whole = frames('百家号', 'reasoning_search', 'normal').join('').replace(/\n/g, '\r\n');
  const want = expectedFields('百家号', 'reasoning_search');
  const bytes = new TextEncoder().encode(whole);
  for (let cut = 1; cut < bytes.length; cut += 7) {
    const p = parse([bytes.slice(0, cut), bytes.slice(cut)]);
    if (!t.same(buildAnswer(p.result()), want, `cut at ${cut}`)) break;
  }
  const one = parse(Array.from(bytes, (b) => Uint8Array.of(b)));
  t.same(buildAnswer(one.result()), want, 'byte by byte');
  t.equal(one.finished, true);
});

t.test('a thought frame with is_end ends the thinking, not the reply', async (t) => {
  const p = parse([
    frame('thought', { content: '想一想。', is_end: 0 }),
    frame('thought', { content: '', is_end: 1 }),
  ]);
  t.equal(p.finished, false);
  t.equal(p.result().reasoningContent, '想一想。');
});

t.test('a citation marker or a line break split across two deltas still lands', async (t) => {
  const p = parse([
    frame('message', { content: '结论^[', is_end: 0 }),
    frame('message', { content: '2]^。<b', is_end: 0 }),
    frame('message', { content: 'r>下一行', is_end: 0 }),
    frame('message', { content: '', is_end: 1 }),
  ]);
  t.equal(p.result().content, '结论[2]。\n下一行');
});

t.test('frames after is_end are recorded, never applied', async (t) => {
  const p = parse(frames('测试', 'standard', 'late_events'));
  t.equal(p.finished, true);
  t.equal(p.trailing, 2);
  t.notMatch(p.result().content, /页面之后追加/);
});

t.test(
  'events that carry nothing are skipped and named; text nobody places is reported',
  async (t) => {
    const quiet = parse(frames('测试', 'standard', 'early_events'));
    t.same(buildAnswer(quiet.result()), expectedFields('测试', 'standard'));
    t.same(quiet.report().ignored, [], 'ping and usage are known bookkeeping');
    t.same(quiet.report().unplaced ?? [], []);

    const card = parse(frames('测试', 'standard', 'unknown_frame'));
    t.same(
      card.report().ignored,
      ['event "card" without content'],
      'an unknown event without text',
    );

    const unknown = parse([frame('markdown', { text: '一段正文', is_end: 0 })]);
    t.same(unknown.report().unplaced, ['event "markdown" with text in "data.text"']);
    const renamed = parse([frame('message', { text: '一段正文', is_end: 0 })]);
    t.same(renamed.report().unplaced, ['a message frame with text in "text"']);
    const sentinel = parse([frame('message', {}), frame('message', { content: 'ok', is_end: 1 })]);
    t.same(sentinel.report().ignored, ['a message frame without content']);
    t.equal(sentinel.result().content, 'ok');
  },
);

t.test('a refusal is the refusal, not the answer', async (t) => {
  const p = parse(frames('测试', 'standard', 'refusal'));
  t.equal(p.result().refusal, REFUSAL);
  t.equal(p.result().content, '');
  t.equal(p.finished, true);
});

t.test('structure it does not know fails as drift; an error frame is its signal', async (t) => {
  t.match(
    failure(['event:message\ndata:<html>\n\n'])?.message,
    /^unrecognised wenxin stream format/,
  );
  const err = failure([
    `event:message\ndata:${JSON.stringify({ code: 4005, msg: '请求过于频繁，请稍后再试' })}\n\n`,
  ]);
  t.equal(err?.account?.state, 'cooling');
});

t.test("the chat call's JSON errors, each the signal it means", async (t) => {
  const of = (body: unknown, status = 200) => chatCallFailure(status, JSON.stringify(body));
  const slider = of({ code: 2001, msg: '请完成安全验证', data: { verifyType: 'slide' } });
  t.match(slider.message, /^slider_captcha: 2001 请完成安全验证/);
  t.match(slider.account, { state: 'needs_human', kind: 'verification' });
  const rotate = of({ code: 2001, msg: '请完成安全验证', data: { verifyType: 'rotate' } });
  t.match(rotate.message, /^rotate_captcha: /);
  t.match(rotate.account, { state: 'needs_human', kind: 'verification' });
  t.match(of({ code: 4001, msg: '请先登录' }).account, {
    state: 'needs_human',
    kind: 'login_wall',
  });
  t.match(of({ code: 4002, msg: '登录已失效，请重新登录' }).account, {
    state: 'needs_human',
    kind: 'session_expired',
  });
  const quota = of({ code: 4006, msg: '今日对话次数已达上限，请明天再来' });
  t.match(quota.message, /quota: 4006/);
  t.equal(quota.account?.state, 'cooling');
  t.equal(quota.retryAfterSeconds, untilBeijingMidnight(), 'until the next midnight in Beijing');
  const rate = of({ code: 4005, msg: '当前提问人数过多，请稍后再试' });
  t.equal(rate.account?.state, 'cooling');
  const acs = of({ code: 4010, msg: 'Acs-Token 校验失败（no Acs-Token）' });
  t.match(acs.message, /^wenxin refused the chat call: 4010 Acs-Token/);
  t.equal(acs.account, undefined, 'a refused token says nothing about the account');
  t.match(chatCallFailure(502, '<html>bad gateway</html>').message, /refused the chat call/);
});

t.test('midnight in Beijing is at most a day away', async (t) => {
  t.equal(untilBeijingMidnight(Date.UTC(2026, 11, 7, 15, 0, 0)), 3600);
  t.equal(untilBeijingMidnight(Date.UTC(2026, 11, 7, 16, 0, 0)), 86_400);
});

t.test('the mode the request body asked', async (t) => {
  t.equal(askedMode('{"model":"X1T","search":1}'), 'reasoning_search');
  t.equal(askedMode('{"model":"EB45T","search":0}'), 'standard');
  t.equal(askedMode('{"model":"EB5","search":1}'), 'search');
  t.equal(askedMode('{"model":"X1T"}'), 'reasoning');
  t.equal(askedMode('{"text":"x"}'), undefined);
  t.equal(askedMode('not json'), undefined);
});
