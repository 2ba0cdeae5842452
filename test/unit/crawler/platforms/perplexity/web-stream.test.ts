/**
 * Perplexity's answer stream parser over every frame shape: the replica's
 * streams (each kind, each mode, both formats), fed whole and cut at every
 * byte; the diff_block patches applied, never concatenated; hand-written
 * frames for what the replica does not send; the chat call's failures
 * (a Cloudflare challenge a captcha), each the signal it means; and the
 * mode the request asked.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import {
  FORMATS,
  PerplexityStream,
} from '../../../../../crawler/platforms/perplexity/web/stream.js';
import { applyPatch } from '../../../../../crawler/platforms/perplexity/web/patch.js';
import { chatCallFailure } from '../../../../../crawler/platforms/perplexity/web/envelope.js';
import { askedMode } from '../../../../../crawler/platforms/perplexity/web/mode.js';
import {
  chatFrames,
  DRAFT_CHUNK,
  LATE_TEXT,
  QUOTA_MESSAGE,
  REFUSAL,
  type StreamKind,
} from '../../../../../replicas/perplexity/frames.js';
import { expectedWebAnswer } from '../../../../../replicas/perplexity/expected.js';
import { CHALLENGE_PAGE } from '../../../../../replicas/perplexity/server.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';

const fields = (a: ReturnType<typeof buildAnswer>) => ({
  answerContent: a.answerContent,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoning: a.reasoningProcess?.content ?? null,
  recommendedQuestions: a.recommendedQuestions,
});

function run(chunks: readonly string[]): PerplexityStream {
  const p = new PerplexityStream();
  for (const c of chunks) p.feed(c);
  for (const e of p.end()) p.apply(e);
  return p;
}

/** The text cut into pieces of `size` characters: frames split anywhere. */
const cut = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_v, i) =>
    text.slice(i * size, (i + 1) * size),
  );

t.test(
  'every mode and answering kind: the exact answer, the mode that ran, the format',
  async (t) => {
    const kinds: StreamKind[] = [
      'normal',
      'old_format',
      'rewritten_chunk',
      'late_events',
      'early_events',
      'unknown_frame',
    ];
    for (const kind of kinds)
      for (const mode of MODES) {
        const prompt = `Solid-state batteries #replica:${kind}`;
        const want = expectedWebAnswer(prompt, mode);
        const text = chatFrames(prompt, mode, kind).join('');
        for (const size of [text.length, 7, 1]) {
          const p = run(cut(text, size));
          const label = `${kind} ${mode} in pieces of ${size}`;
          t.ok(p.finished, `${label}: finished`);
          t.same(fields(buildAnswer(p.result())), fields(want as never), `${label}: the answer`);
          t.same(
            p.ran(),
            { thinking: want.reasoningProcess !== null, search: want.referenceList.length > 0 },
            `${label}: what ran`,
          );
          t.equal(p.formatVersion, want.formatVersion, `${label}: the format`);
          t.same(p.report().unplaced ?? [], [], `${label}: nothing unplaced`);
          if (size !== text.length) break;
        }
      }
  },
);

t.test('the patched value, never the values concatenated', async (t) => {
  const p = run(chatFrames('Tides #replica:rewritten_chunk', 'search', 'rewritten_chunk'));
  t.notMatch(p.result().content, DRAFT_CHUNK, 'the rewritten draft chunk is gone');
  const late = run(chatFrames('Tides #replica:late_events', 'search', 'late_events'));
  t.notMatch(late.result().content, LATE_TEXT, 'a patch after the final frame is not applied');
  t.equal(late.trailing, 2, 'the late patch and end_of_stream recorded');
  t.same(
    applyPatch(
      { goals: [{ description: 'Plan' }] },
      { op: 'replace', path: '/goals/0/description', value: 'Plan it' },
    ),
    {
      goals: [{ description: 'Plan it' }],
    },
  );
  t.same(applyPatch({ a: [1, 2] }, { op: 'remove', path: '/a/0' }), { a: [2] });
  t.same(applyPatch(undefined, { op: 'add', path: '/chunks/-', value: 'x' }), { chunks: ['x'] });
  t.throws(() => applyPatch({ a: [] }, { op: 'add', path: '/a/5', value: 1 }));
  t.throws(() => applyPatch({}, { op: 'move', path: '/a', value: 1 }));
});

t.test('frames the replica does not send', async (t) => {
  const frame = (v: unknown) => `event: message\ndata: ${JSON.stringify(v)}\n\n`;
  const p = run([
    frame({
      status: 'PENDING',
      blocks: [
        {
          intended_usage: 'ask_text',
          diff_block: {
            field: 'markdown_block',
            patches: [{ op: 'replace', path: '', value: { chunks: ['Tides [web:1] and'] } }],
          },
        },
        {
          intended_usage: 'sources_answer_mode',
          sources_mode_block: {
            web_results: [{ name: 'NOAA', url: 'https://noaa.gov/tides' }, { name: 'no url' }],
          },
        },
        {
          intended_usage: 'widget',
          diff_block: {
            field: 'story_block',
            patches: [{ op: 'replace', path: '', value: { text: 'moved text' } }],
          },
        },
      ],
    }),
    frame({
      status: 'COMPLETED',
      final_sse_message: true,
      blocks: [
        {
          intended_usage: 'ask_text',
          diff_block: {
            field: 'markdown_block',
            patches: [{ op: 'replace', path: '/answer', value: 'Tides [web:1].' }],
          },
        },
      ],
    }),
  ]);
  t.equal(p.result().content, 'Tides [1].', '`answer` when sent; [web:N] as [N]');
  t.same(
    p.result().searchResults,
    [{ title: 'NOAA', url: 'https://noaa.gov/tides', index: 1 }],
    'sources_mode_block read',
  );
  t.same(
    p.report().unplaced,
    ['a story_block with text in "text"'],
    'an unknown block with text is unplaced',
  );

  const bad = (v: unknown) => {
    try {
      run([frame(v)]);
      return 'no error';
    } catch (err) {
      return (err as PlatformError).message;
    }
  };
  t.match(
    bad({ blocks: [{ diff_block: { field: 'markdown_block' } }] }),
    /without its field or patches/,
  );
  t.match(
    bad({
      blocks: [{ diff_block: { field: 'markdown_block', patches: [{ op: 'move', path: '/x' }] } }],
    }),
    /patch op "move"/,
  );
  t.match(bad('not an object'), /a frame that is not an object/);
});

t.test('in-stream outcomes: a refusal, the query limit, no end', async (t) => {
  const refusal = run(chatFrames('x #replica:refusal', 'search', 'refusal'));
  t.equal(refusal.result().refusal, REFUSAL);
  t.ok(refusal.finished);
  let quota: unknown;
  try {
    run(chatFrames('x #replica:quota', 'search', 'quota'));
  } catch (err) {
    quota = err;
  }
  t.ok(quota instanceof PlatformError);
  t.match(
    (quota as PlatformError).message,
    `rate or quota limit on perplexity: QUERY_LIMIT ${QUOTA_MESSAGE}`,
  );
  t.equal((quota as PlatformError).account?.state, 'cooling');
  const open = run(chatFrames('x #replica:no_end', 'search', 'no_end'));
  t.notOk(open.finished, 'no final frame: not finished');
  t.equal(open.formatVersion, FORMATS.current);
});

t.test('the chat call failures, each the signal it means', async (t) => {
  const f = (status: number, body: string) => {
    const e = chatCallFailure(status, body);
    return { message: e.message, account: e.account };
  };
  t.match(f(403, CHALLENGE_PAGE), {
    message: 'captcha: a Cloudflare challenge on the chat call (HTTP 403) (perplexity)',
    account: { state: 'needs_human', kind: 'verification' },
  });
  t.match(f(401, '{"detail":"Unauthorized: please sign in again"}'), {
    message: /^login wall: HTTP 401/,
    account: { state: 'needs_human', kind: 'login_wall' },
  });
  t.match(f(429, '{"detail":"Too many requests, slow down"}'), { account: { state: 'cooling' } });
  t.match(f(500, '{"detail":"boom"}'), {
    message: 'perplexity refused the chat call: HTTP 500 boom',
    account: undefined,
  });
});

t.test('the mode the request asked', async (t) => {
  const body = (model: string, search: boolean | 'focus') =>
    JSON.stringify({
      params:
        search === 'focus'
          ? { model_preference: model, search_focus: 'internet' }
          : { model_preference: model, sources: search ? ['web'] : [] },
      query_str: 'x',
    });
  const cases: [string, boolean | 'focus', Mode][] = [
    ['pplx_pro', false, 'standard'],
    ['claude45sonnetthinking', false, 'reasoning'],
    ['pplx_pro', true, 'search'],
    ['gpt5_thinking', true, 'reasoning_search'],
    ['r1', 'focus', 'reasoning_search'],
    ['o3', false, 'reasoning'],
  ];
  for (const [model, search, mode] of cases)
    t.equal(askedMode(body(model, search)), mode, `${model} ${search}`);
  t.equal(askedMode('{"params":{}}'), undefined);
  t.equal(askedMode('nope'), undefined);
});
