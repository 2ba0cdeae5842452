/**
 * Qwen's chat stream parser over every documented format: the replica's
 * streams of chat.qwen.ai 2026 and 2025 and of the domestic site, each mode,
 * fed whole, byte by byte and cut in two, each recording the format that answered;
 * the 2026 thinking snapshots and the domestic cumulative snapshots taken
 * last, never concatenated; frames after the end kept out of the answer;
 * unknown content reported, never dropped; the chat call's non-stream
 * answers (the WAF's HTML page, the JSON envelope) each the signal it means.
 * Pure: no browser.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError, type WebAnswer } from '../../../../../crawler/platforms/types.js';
import { QwenStream } from '../../../../../crawler/platforms/qwen/web/stream.js';
import { chatCallFailure } from '../../../../../crawler/platforms/qwen/web/envelope.js';
import { askedMode } from '../../../../../crawler/platforms/qwen/web/mode.js';
import {
  chatFrames,
  domesticFrames,
  type StreamKind,
} from '../../../../../replicas/qwen/frames.js';
import { expectedWebAnswer, type Format } from '../../../../../replicas/qwen/expected.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';
import { WAF_DENIED, WAF_SLIDER } from '../../../../../replicas/qwen/pages.js';

function parse(chunks: readonly (string | Uint8Array)[]) {
  const p = new QwenStream();
  for (const c of chunks) for (const e of p.push(c)) p.apply(e);
  for (const e of p.end()) p.apply(e);
  return p;
}

/** The fields a parser gives: the kit adds the mode, format, witness and page's model label. */
const fieldsOf = (w: WebAnswer) => {
  const f: Partial<WebAnswer> = { ...w };
  delete f.effectiveMode;
  delete f.formatVersion;
  delete f.answerSource;
  delete f.modelReported;
  return f;
};

/** Every byte boundary of the whole stream, as two chunks. */
function cuts(text: string): [Uint8Array, Uint8Array][] {
  const bytes = new TextEncoder().encode(text);
  return Array.from({ length: bytes.length - 1 }, (_, i) => [
    bytes.slice(0, i + 1),
    bytes.slice(i + 1),
  ]);
}

const streams: [Format, (prompt: string, mode: Mode, kind: StreamKind) => string[]][] = [
  ['qwen-2026', (p, m, k) => chatFrames(p, m, k)],
  ['qwen-2025', (p, m) => chatFrames(p, m, 'format_2025')],
  ['tongyi-legacy', (p, m, k) => domesticFrames(p, m, k)],
];

t.test('every format, every mode: the exact answer, the format and what ran', async (t) => {
  for (const [format, frames] of streams)
    for (const mode of MODES) {
      const prompt = `电动汽车 ${mode}`;
      const p = parse(frames(prompt, mode, 'normal'));
      const label = `${format} ${mode}`;
      t.ok(p.finished, `${label}: the end marker`);
      t.equal(p.formatVersion, format, `${label}: the format recorded`);
      const answer = buildAnswer(p.result());
      t.same(answer, fieldsOf(expectedWebAnswer(prompt, mode, format)), `${label}: exact`);
      t.same(
        p.ran(),
        {
          thinking: mode === 'reasoning' || mode === 'reasoning_search',
          search: mode === 'search' || mode === 'reasoning_search',
        },
        `${label}: what ran`,
      );
      t.same(p.report().unplaced, undefined, `${label}: nothing unplaced`);
    }
});

t.test('fed byte by byte, and cut in two at every 97th byte: the same answer', async (t) => {
  for (const [format, frames] of streams) {
    const text = frames('电池', 'reasoning_search', 'normal').join('');
    const whole = JSON.stringify(buildAnswer(parse([text]).result()));
    const bytes = new TextEncoder().encode(text);
    const single = Array.from(bytes, (b) => Uint8Array.of(b));
    t.equal(JSON.stringify(buildAnswer(parse(single).result())), whole, `${format}: byte by byte`);
    const all = cuts(text).filter((_, i) => i % 97 === 0);
    const differ = all.filter(
      ([a, b]) => JSON.stringify(buildAnswer(parse([a, b]).result())) !== whole,
    );
    t.equal(differ.length, 0, `${format}: ${all.length} cuts, none differs`);
  }
});

t.test('snapshots are taken last, never concatenated; late frames stay out', async (t) => {
  const d = parse(domesticFrames('光伏', 'reasoning', 'normal'));
  t.equal(
    d.result().reasoningContent,
    expectedWebAnswer('光伏', 'reasoning').reasoningProcess?.content,
  );
  const late = parse(chatFrames('光伏', 'standard', 'late_events'));
  t.equal(late.trailing, 3, 'usage, a delta and [DONE] after the end');
  t.notMatch(late.result().content, /追加/);
  const cut = parse(chatFrames('光伏', 'standard', 'no_end'));
  t.equal(cut.finished, false, 'no end: the page decides');
});

t.test(
  'unknown content is reported, bookkeeping skipped, unknown structure is drift',
  async (t) => {
    const unknown = parse(chatFrames('光伏', 'standard', 'unknown_frame'));
    t.match(unknown.report().unplaced, [/phase "recommend" with text in "content"/]);
    const early = parse(chatFrames('光伏', 'standard', 'early_events'));
    t.same(early.report().unplaced, undefined);
    t.match(early.report().ignored, [/keys x_request_id/]);
    t.throws(() => parse(['data: <html>\n\n']), {
      message: /unrecognised qwen stream format: a frame that is not JSON/,
    });
    t.throws(() => parse(['data: {"answer":"world"}\n\n']), {
      message: /unrecognised qwen stream format: a first frame no format knows/,
    });
  },
);

t.test('a refusal ends the answer with the site words', async (t) => {
  t.match(parse(chatFrames('x', 'standard', 'refusal')).result().refusal, /inappropriate/);
  t.equal(parse(domesticFrames('x', 'standard', 'refusal')).result().refusal, '抱歉');
});

t.test('the chat call answered otherwise: each the signal it means', async (t) => {
  const env = (code: string, details: string) =>
    JSON.stringify({ success: false, data: { code, details } });
  const cases: [number, string, RegExp, string | undefined, string | undefined][] = [
    [200, WAF_SLIDER, /^captcha: the WAF's slider page/, 'needs_human', 'verification'],
    [200, WAF_DENIED, /^blocked: the WAF refused/, 'needs_human', 'verification'],
    [
      200,
      '{"ret":["RGV587_ERROR::SM::x"]}',
      /^blocked: the site's risk control/,
      'needs_human',
      'verification',
    ],
    [
      200,
      env('Unauthorized', 'log in'),
      /^session_expired: HTTP 401/,
      'needs_human',
      'session_expired',
    ],
    [403, env('Forbidden', 'no'), /^login wall: HTTP 403/, 'needs_human', 'login_wall'],
    [
      200,
      env('RateLimited', '请求过于频繁'),
      /^rate or quota limit on qwen: RateLimited/,
      'cooling',
      undefined,
    ],
    [
      200,
      env('RateLimited', 'You have reached the daily usage limit.'),
      /quota: /,
      'cooling',
      undefined,
    ],
    [
      200,
      env('CHAT_NOT_FOUND', 'gone'),
      /^qwen refused the chat call: CHAT_NOT_FOUND/,
      undefined,
      undefined,
    ],
  ];
  for (const [status, body, message, state, kind] of cases) {
    const err = chatCallFailure(status, body);
    t.ok(err instanceof PlatformError);
    t.match(err.message, message, err.message);
    t.equal(err.account?.state, state, `${err.message}: the account`);
    if (kind) t.equal(err.account?.state === 'needs_human' && err.account.kind, kind);
  }
});

t.test('the mode asked, from either site body', async (t) => {
  const intl = (chat_type: string, thinking_enabled: boolean) =>
    JSON.stringify({ messages: [{ chat_type, feature_config: { thinking_enabled } }] });
  t.equal(askedMode(intl('search', true)), 'reasoning_search');
  t.equal(askedMode(intl('t2t', false)), 'standard');
  t.equal(
    askedMode(JSON.stringify({ contents: [], params: { deepThink: true, searchType: '' } })),
    'reasoning',
  );
  t.equal(askedMode('{"messages":[{}]}'), undefined, 'a body that does not say');
  t.equal(askedMode('not json'), undefined);
});
