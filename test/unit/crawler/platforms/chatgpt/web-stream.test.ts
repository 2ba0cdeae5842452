/**
 * ChatGPT's chat stream parser over every frame shape: the replica's
 * streams in both encodings (each kind, each mode), fed whole, cut at every
 * byte with CRLF line ends; the v1 operations one by one (a path left out,
 * patches, truncate, remove, an operation no build defines); hand-written
 * messages for what the replica does not send (a citation run without its
 * content reference, several refs in one run, an answer with text outside
 * its parts); the moderation stop; and the chat call's errors, each the
 * signal it means.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';
import {
  BLOCKED,
  ChatgptStream,
  FORMATS,
} from '../../../../../crawler/platforms/chatgpt/web/stream.js';
import { applyOp, opOf } from '../../../../../crawler/platforms/chatgpt/web/delta.js';
import { readMessages } from '../../../../../crawler/platforms/chatgpt/web/messages.js';
import { chatCallFailure } from '../../../../../crawler/platforms/chatgpt/web/envelope.js';
import { askedMode } from '../../../../../crawler/platforms/chatgpt/web/mode.js';
import { chatFrames, serialize, type StreamKind } from '../../../../../replicas/chatgpt/frames.js';
import { expectedWebAnswer, ranMode } from '../../../../../replicas/chatgpt/expected.js';
import { driftChatgptStream } from '../../../../../replicas/chatgpt/stream-drift.js';
import { MODES, type Mode } from '../../../../../services/shared/platforms.js';

const ids = { conversation: 'c0ffee00-0000-4000-8000-000000000001', user: 'u-1' };

function parse(chunks: readonly string[]): ChatgptStream {
  const s = new ChatgptStream();
  for (const c of chunks) s.feed(c);
  for (const e of s.end()) s.apply(e);
  return s;
}

const wire = (prompt: string, mode: Mode, kind: StreamKind) =>
  serialize(chatFrames(prompt, mode, kind, ids)).join('');

t.test('the replica streams, both encodings, every mode: the exact answer', async (t) => {
  for (const kind of [
    'normal',
    'old_format',
    'batched_patches',
    'early_events',
    'late_events',
  ] as const)
    for (const mode of MODES) {
      const prompt = `electric cars${kind === 'normal' ? '' : ` #replica:${kind}`}`;
      const s = parse([wire(prompt, mode, kind)]);
      const want = expectedWebAnswer(prompt, mode);
      const got = buildAnswer(s.result());
      t.ok(s.finished, `${kind} ${mode}: finished`);
      t.equal(got.answerContent, want.answerContent, `${kind} ${mode}: text`);
      t.same(
        got.referenceList.map((r) => [r.index, r.url, r.site]),
        want.referenceList.map((r) => [r.index, r.url, r.site]),
        `${kind} ${mode}: sources`,
      );
      t.equal(got.reasoningProcess?.content ?? '', want.reasoningProcess?.content ?? '');
      t.equal(s.formatVersion, kind === 'old_format' ? FORMATS.older : FORMATS.current);
      t.same(s.ran(), {
        thinking: ranMode(prompt, mode).startsWith('reasoning'),
        search: mode === 'search' || mode === 'reasoning_search',
      });
      t.equal(s.model, 'gpt-5');
      if (kind === 'late_events')
        t.equal(s.trailing, 2, 'the late append and [DONE] only recorded');
    }
});

t.test('cut at every byte with CRLF line ends: the same answer', async (t) => {
  const text = wire('robot vacuums', 'reasoning_search', 'normal').replace(/\n/g, '\r\n');
  const whole = parse([text]).result();
  for (let cut = 1; cut < text.length; cut += 7) {
    const s = parse([text.slice(0, cut), text.slice(cut)]);
    if (s.result().content !== whole.content) {
      t.fail(`cut at ${cut}`);
      return;
    }
  }
  t.ok(whole.content.includes('[1]'), 'citations as [n]');
  t.pass('every cut');
});

t.test(
  'the stream drifts: sentinels ignored, moved or renamed text reported unplaced',
  async (t) => {
    const frames = chatFrames('tea', 'search', 'normal', ids);
    const sentinels = parse(serialize(driftChatgptStream(frames, 'empty_sentinels')));
    t.equal(sentinels.result().content, expectedWebAnswer('tea', 'search').answerContent);
    t.equal(sentinels.report().unplaced, undefined);
    for (const d of ['unknown_content_frame', 'renamed_fields'] as const) {
      const s = parse(serialize(driftChatgptStream(frames, d)));
      t.ok(s.report().unplaced?.length, `${d}: ${s.report().unplaced?.join('; ')}`);
      t.not(s.result().content, expectedWebAnswer('tea', 'search').answerContent);
    }
  },
);

t.test('v1 operations: a left-out path continues, patches, truncate, remove', async (t) => {
  let env: Record<string, unknown> = {};
  let last: { p: string; o: string } | undefined;
  const step = (f: Record<string, unknown>) => {
    const op = opOf(f, last);
    if (op.o !== 'patch') last = { p: op.p, o: op.o };
    env = applyOp(env, op);
  };
  step({ p: '', o: 'add', v: { message: { content: { parts: [''] } } } });
  step({ p: '/message/content/parts/0', o: 'append', v: 'Hel' });
  step({ v: 'lo' });
  step({ p: '', o: 'patch', v: [{ p: '/message/content/parts/0', o: 'append', v: '!!' }] });
  step({ p: '/message/content/parts/0', o: 'truncate', v: 6 });
  step({ p: '/message/metadata/refs', o: 'append', v: [1] });
  step({ p: '/message/metadata/refs', o: 'append', v: [2] });
  step({ p: '/message/metadata/gone', o: 'add', v: 1 });
  step({ p: '/message/metadata/gone', o: 'remove' });
  t.same(env, { message: { content: { parts: ['Hello!'] }, metadata: { refs: [1, 2] } } });
  t.throws(() => opOf({ v: 'x' }, undefined), /neither its own path/);
  t.throws(() => applyOp(env, { p: '/x', o: 'splice', v: 1 }), /an operation "splice"/);
});

t.test('an operation no build defines is format drift at once', async (t) => {
  const s = new ChatgptStream();
  s.feed('event: delta_encoding\ndata: "v1"\n\n');
  t.throws(
    () => s.feed('event: delta\ndata: {"p":"/message","o":"splice","v":1}\n\n'),
    /unrecognised chatgpt stream format/,
  );
  t.throws(
    () => new ChatgptStream().feed('event: delta_encoding\ndata: "v2"\n\n'),
    /the delta encoding "v2"/,
  );
});

const answer = (text: string, metadata: object = {}) => ({
  id: 'a',
  author: { role: 'assistant' },
  recipient: 'all',
  content: { content_type: 'text', parts: [text] },
  metadata,
});
const tool = {
  id: 't',
  author: { role: 'tool', name: 'web.run' },
  content: { content_type: 'text', parts: [''] },
  metadata: {
    search_result_groups: [
      {
        entries: [0, 1, 2].map((k) => ({
          url: `https://example.com/${k}`,
          title: `r${k}`,
          ref_id: { turn_index: 0, ref_type: 'search', ref_index: k },
        })),
      },
    ],
  },
};

t.test(
  'citations: runs by their ref without content references, several refs in one',
  async (t) => {
    const r = readMessages([
      tool,
      answer(
        'A\ue200cite\ue202turn0search2\ue202turn0search0\ue201 B\ue200cite\ue202turn9search9\ue201.',
      ),
    ]);
    t.equal(r.text, 'A[3][1] B.', 'an unknown ref dropped, as the page drops it');
    t.ok(r.searched);
    const cited = readMessages([
      answer('C\ue200cite\ue202turn0news1\ue201', {
        content_references: [
          {
            matched_text: '\ue200cite\ue202turn0news1\ue201',
            items: [{ url: 'https://news.example/1', title: 'n1', attribution: 'News' }],
          },
        ],
      }),
    ]);
    t.equal(cited.text, 'C[1]', 'a cited source the search list lacked joins it');
    t.same(cited.sources, [{ title: 'n1', url: 'https://news.example/1', site: 'News', index: 1 }]);
    const old = readMessages([
      {
        ...tool,
        metadata: {
          _cite_metadata: { metadata_list: [{ url: 'https://o.example/0', title: 'o0' }] },
        },
      },
      answer('D【0†source】 E【5†source】'),
    ]);
    t.equal(old.text, 'D[1] E', 'an older mark by its place in the browser list');
  },
);

t.test('thoughts, a recap, a message of a kind no build sends', async (t) => {
  const r = readMessages([
    { id: 'u', author: { role: 'user' }, content: { content_type: 'text', parts: ['q'] } },
    {
      id: 'th',
      author: { role: 'assistant' },
      content: { content_type: 'thoughts', thoughts: [{ summary: 'Plan', content: 'think' }] },
    },
    {
      id: 'rc',
      author: { role: 'assistant' },
      content: { content_type: 'reasoning_recap', content: 'Thought for 2s' },
    },
    {
      id: 'x',
      author: { role: 'assistant' },
      content: { content_type: 'rich_card', text: 'moved here' },
    },
    answer('Answer'),
  ]);
  t.equal(r.thinking, 'Plan\nthink');
  t.equal(r.text, 'Answer', 'the user echo is never the answer');
  t.same(r.unplaced, ['a rich_card message with text in "text"']);
});

t.test('the moderation stop is a refusal; an error frame its signal', async (t) => {
  const s = parse([wire('insurance #replica:refusal', 'standard', 'refusal')]);
  t.equal(s.result().refusal, BLOCKED);
  t.equal(s.result().content, '');
  const e = new ChatgptStream();
  try {
    e.feed(
      'data: {"message": null, "conversation_id": "c", "error": "You\'ve reached our limit of messages per hour."}\n\n',
    );
    t.fail('no error');
  } catch (err) {
    t.match(err, { message: /^rate or quota limit on chatgpt/ });
  }
});

t.test('the chat call errors, each its signal', async (t) => {
  const cases: [number, string, RegExp, string | undefined][] = [
    [
      401,
      '{"detail":{"message":"Your authentication token has expired.","code":"token_expired"}}',
      /^login wall: HTTP 401/,
      'needs_human',
    ],
    [
      403,
      '<!doctype html><title>Just a moment...</title><script src="https://challenges.cloudflare.com/x"></script>',
      /^captcha: Cloudflare challenge/,
      'needs_human',
    ],
    [
      403,
      '<html><title>Access denied</title></html>',
      /^blocked: HTTP 403, Access denied/,
      'needs_human',
    ],
    [
      403,
      '{"detail":"Unusual activity has been detected from your device. Try again later."}',
      /^blocked: Unusual activity/,
      'needs_human',
    ],
    [
      429,
      '{"detail":"You\'ve reached our limit of messages per hour. Please try again later."}',
      /^rate or quota limit on chatgpt: You've/,
      'cooling',
    ],
    [
      429,
      '{"detail":{"message":"You\'ve hit the Free plan limit for GPT-5.","code":"usage_cap"}}',
      /^rate or quota limit on chatgpt: quota: /,
      'cooling',
    ],
    [
      500,
      '{"detail":"Something went wrong"}',
      /^chatgpt refused the chat call: Something went wrong/,
      undefined,
    ],
  ];
  for (const [status, body, message, account] of cases) {
    const err = chatCallFailure(status, body);
    t.ok(err instanceof PlatformError);
    t.match(err, { message, account: account ? { state: account } : undefined }, err.message);
  }
});

t.test('the mode the body asks: system_hints', async (t) => {
  t.equal(askedMode('{"system_hints":["reason","search"]}'), 'reasoning_search');
  t.equal(askedMode('{"system_hints":["search"]}'), 'search');
  t.equal(askedMode('{"system_hints":[]}'), 'standard');
  t.equal(askedMode('{"action":"next"}'), undefined);
  t.equal(askedMode('not json'), undefined);
});
