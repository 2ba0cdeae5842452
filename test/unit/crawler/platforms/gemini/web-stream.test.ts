/**
 * Gemini's chat stream parser: the replica's responses (each kind, each
 * mode, each index layout), fed whole and cut at every character, and as
 * bytes cut inside a UTF-8 character; the fields found by shape wherever the
 * layout puts them, with the shape and the version recorded; the snapshots
 * taken as the last one; the stream drifts left to the witnesses (text not
 * placed); the errors inside a 200 stream; and the chat call's other
 * answers, each the signal it means.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import { GeminiStream } from '../../../../../crawler/platforms/gemini/web/stream.js';
import { citeMarks, locate, sourceIn } from '../../../../../crawler/platforms/gemini/web/shape.js';
import { chatCallFailure } from '../../../../../crawler/platforms/gemini/web/envelope.js';
import {
  chatChunks,
  GUARD,
  LATE_TEXT,
  rpcChunk,
  type StreamKind,
} from '../../../../../replicas/gemini/frames.js';
import { driftGeminiStream } from '../../../../../replicas/gemini/stream-drift.js';
import { expectedWebAnswer, ranMode } from '../../../../../replicas/gemini/expected.js';
import { sorryPage } from '../../../../../replicas/gemini/pages.js';
import { modeOf } from '../../../../../crawler/platforms/common/ran-mode.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';
import type { Drift } from '../../../../../replicas/common/drift.js';

const IDS = { cid: 'c_0123456789abcdef', rid: 'r_0123456789abcdef', rcid: 'rc_0123456789abcdef' };

function parse(pieces: readonly (string | Uint8Array)[]) {
  const p = new GeminiStream();
  for (const c of pieces) p.feed(c);
  for (const c of p.end()) p.apply(c);
  return p;
}

const body = (prompt: string, mode: Mode, kind: StreamKind, drift?: Drift) =>
  GUARD + driftGeminiStream(chatChunks(prompt, mode, kind, IDS), drift).join('');

const fieldsOf = (a: ReturnType<typeof buildAnswer>) => ({
  answerContent: a.answerContent,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoningProcess: a.reasoningProcess,
});
const want = (prompt: string, mode: Mode) => {
  const w = expectedWebAnswer(prompt, mode);
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
  'moved_indexes',
  'late_events',
  'early_events',
  'unknown_frame',
];

for (const kind of KINDS)
  for (const mode of MODES)
    t.test(`${kind}, ${mode}: the exact answer, the mode that ran, the version`, async (t) => {
      const prompt = `electric car batteries #replica:${kind}`;
      const p = parse([body(prompt, mode, kind)]);
      t.ok(p.finished, 'the e envelope ends it');
      t.same(fieldsOf(buildAnswer(p.result())), want(prompt, mode));
      t.same(modeOf(p.ran().thinking, p.ran().search), ranMode(prompt, mode));
      t.equal(p.formatVersion, expectedWebAnswer(prompt, mode).formatVersion);
      t.same(p.report().unplaced ?? [], [], 'nothing left unplaced');
      t.equal(p.conversationId, IDS.cid);
    });

t.test(
  'the fields are found wherever the layout puts them, and the shape says where',
  async (t) => {
    const prompt = 'solar panels';
    const now = parse([body(prompt, 'reasoning_search', 'normal')]);
    t.equal(
      now.shape,
      'candidate at [4][0], text at [4][0][1][0], thinking at [4][0][37][0][0], citation groups at [4][0][43]',
    );
    const moved = parse([
      body(`${prompt} #replica:moved_indexes`, 'reasoning_search', 'moved_indexes'),
    ]);
    t.equal(
      moved.shape,
      'candidate at [5][0], text at [5][0][4][0], thinking at [5][0][40][0][0], citation groups at [5][0][46]',
    );
    t.same(fieldsOf(buildAnswer(moved.result())), fieldsOf(buildAnswer(now.result())));
    const bard = parse([body(`${prompt} #replica:old_format`, 'search', 'old_format')]);
    t.equal(bard.shape, 'candidate at [4][0], text at [4][0][1][0], sources at [4][0][2]');
    t.equal(bard.formatVersion, 'bard-2024');
  },
);

t.test('cut at every character, and as bytes inside a UTF-8 character', async (t) => {
  const prompt = '新能源汽车的电池技术';
  const whole = body(prompt, 'reasoning_search', 'normal');
  const expected = fieldsOf(buildAnswer(parse([whole]).result()));
  t.same(expected, want(prompt, 'reasoning_search'));
  const chars = Array.from(whole);
  // Every cut place, in a few passes (every character at once is slow for nothing).
  for (const step of [1, 7, 61]) {
    const pieces: string[] = [];
    for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(''));
    t.same(fieldsOf(buildAnswer(parse(pieces).result())), expected, `cut every ${step}`);
  }
  const bytes = Buffer.from(whole, 'utf8');
  const cuts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 5) cuts.push(bytes.subarray(i, i + 5));
  t.same(fieldsOf(buildAnswer(parse(cuts).result())), expected, 'bytes cut every 5');
});

t.test('the last snapshot is the answer; envelopes after the e one are not applied', async (t) => {
  const p = parse([body('wind power #replica:late_events', 'standard', 'late_events')]);
  t.notOk(p.result().content.includes(LATE_TEXT.trim()));
  t.ok(p.trailing > 0, 'the late snapshot was recorded as trailing');
});

t.test('no e envelope: not complete, the last snapshot so far', async (t) => {
  const p = parse([body('tides #replica:no_end', 'standard', 'no_end')]);
  t.notOk(p.finished);
  t.equal(p.result().content, want('tides', 'standard').answerContent);
});

t.test(
  'the stream drifts: content-free chunks skipped, moved text reported unplaced',
  async (t) => {
    const prompt = 'coffee';
    const plain = fieldsOf(buildAnswer(parse([body(prompt, 'search', 'normal')]).result()));
    const sentinels = parse([body(prompt, 'search', 'normal', 'empty_sentinels')]);
    t.same(fieldsOf(buildAnswer(sentinels.result())), plain);
    t.same(sentinels.report().unplaced ?? [], []);
    t.match(sentinels.report().ignored, ['a "di" envelope']);

    const unknown = parse([body(prompt, 'search', 'normal', 'unknown_content_frame')]);
    t.same(unknown.report().unplaced, ['a "wrb.rt" envelope with text']);
    t.not(buildAnswer(unknown.result()).answerContent, plain.answerContent, 'the stream lost text');

    const renamed = parse([body(prompt, 'search', 'normal', 'renamed_fields')]);
    t.same(renamed.report().unplaced, ['an object with text at [4][0][1]']);
    t.equal(renamed.result().content, '', 'no text placed');
  },
);

t.test('errors inside a 200 stream and the chat call refused', async (t) => {
  const quota = new GeminiStream();
  const err = (() => {
    try {
      quota.feed(body('x #replica:quota', 'standard', 'quota'));
    } catch (e) {
      return e;
    }
  })();
  t.ok(err instanceof PlatformError);
  t.match(
    (err as PlatformError).message,
    /rate or quota limit on gemini: usage limit exceeded \(1037\)/,
  );
  t.match((err as PlatformError).account, { state: 'cooling' });

  const sorry = chatCallFailure(429, sorryPage());
  t.match(sorry.message, /^captcha: Google's unusual-traffic page/);
  t.match(sorry.account, { state: 'needs_human', kind: 'verification' });
  t.match(chatCallFailure(401, 'Your session has expired.').account, {
    state: 'needs_human',
    kind: 'login_wall',
  });
  t.match(chatCallFailure(429, 'Too Many Requests').account, { state: 'cooling' });
});

t.test('what is not this format fails as drift, never a partial answer', async (t) => {
  for (const [what, text] of [
    ['not JSON', `${GUARD}12\n{not json}\n`],
    ['no length', `${GUARD}<html>oops</html>`],
    ['an untagged envelope', GUARD + rpcChunk([[1, 2, 3]])],
    ['a payload that is not JSON', GUARD + rpcChunk([['wrb.fr', null, '{oops']])],
  ] as const)
    t.throws(() => parse([text]), /unrecognised gemini stream format/, what);
});

t.test('shape helpers', async (t) => {
  t.equal(citeMarks('a [cite: 1] b [cite: 2, 3].'), 'a [1] b [2][3].');
  t.same(sourceIn([null, [[['https://i/x.png', 'https://a.example/p', 'Title']]]]), {
    title: 'Title',
    url: 'https://a.example/p',
    site: 'a.example',
    icon: 'https://i/x.png',
  });
  t.same(locate([null, ['c_1abc', 'r_2'], null]).candidateAt, undefined, 'no candidate: none');
});
