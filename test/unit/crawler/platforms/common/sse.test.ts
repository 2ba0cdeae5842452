import t from 'tap';
import fc from 'fast-check';
import {
  isDone,
  parseSse,
  SseParser,
  type SseEvent,
} from '../../../../../crawler/platforms/common/sse.js';
import { sandboxAnswer } from '../../../../../sandbox/answers.js';
import {
  concatPieces,
  groupPieces,
  streamChunks,
  streamPieces,
} from '../../../../../sandbox/stream.js';

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);

/** Splits `b` at the given offsets (sorted, deduplicated, inside the buffer). */
function splitAt(b: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < b.length))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(b.subarray(prev, p));
    prev = p;
  }
  out.push(b.subarray(prev));
  return out;
}

const data = (events: SseEvent[]) => events.map((e) => e.data);

t.test('plain OpenAI-style events and [DONE]', async (t) => {
  const events = parseSse([bytes('data: {"a":1}\n\ndata: {"b":"x"}\n\ndata: [DONE]\n\n')]);
  t.same(data(events), ['{"a":1}', '{"b":"x"}', '[DONE]']);
  t.same(
    events.map((e) => e.event),
    ['message', 'message', 'message'],
  );
  t.same(events.map(isDone), [false, false, true]);
  t.ok(isDone({ event: 'message', data: ' [DONE] ' }), 'tolerates blanks around the sentinel');
});

t.test('comments and extra blank lines are ignored', async (t) => {
  const parser = new SseParser();
  const events = [
    ...parser.push(': keep-alive\n\n\n\n'),
    ...parser.push('data: one\n\n:another comment\n'),
    ...parser.push('\n\n\ndata: two\n\n'),
  ];
  t.same(data(events), ['one', 'two']);
  t.equal(parser.comments, 2);
});

t.test('LF, CRLF and CR line ends, including a CRLF split across chunks', async (t) => {
  t.same(data(parseSse(['data: a\r\n\r\ndata: b\r\rdata: c\n\n'])), ['a', 'b', 'c']);
  // "\r" at the end of one chunk and "\n" at the start of the next are one line end.
  t.same(data(parseSse(['data: a\r', '\n\r', '\ndata: b\r\n', '\r\n'])), ['a', 'b']);
  t.same(data(parseSse(['data: a\r', '\r', 'data: b\r\n\r\n'])), ['a', 'b']);
});

t.test(
  'fields: multi-line data, event, id, retry, no space after colon, unknown fields',
  async (t) => {
    const events = parseSse([
      'event: delta\nid: 7\nretry: 1500\ndata: first\ndata:second\nfoo: bar\ndata\n\n',
      'data: after\n\n',
    ]);
    t.same(events[0], { event: 'delta', data: 'first\nsecond\n', id: '7', retry: 1500 });
    t.same(events[1], { event: 'message', data: 'after', id: '7' }, 'the last event id persists');
  },
);

t.test('an event without data is not dispatched', async (t) => {
  t.same(parseSse(['event: ping\n\nid: 3\n\n']), []);
});

t.test('end() delivers an unterminated last event and flushes the decoder', async (t) => {
  const parser = new SseParser();
  t.same(parser.push(bytes('data: {"x":1}\n\ndata: [DONE]')), [
    { event: 'message', data: '{"x":1}' },
  ]);
  t.same(data(parser.end()), ['[DONE]']);
  // A multi-byte character cut at the very end of input becomes U+FFFD, not an exception.
  const p2 = new SseParser();
  p2.push(bytes('data: 中').subarray(0, 8));
  t.same(data(p2.end()), ['\ufffd']);
});

t.test('a UTF-8 BOM at the start is dropped', async (t) => {
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('data: x\n\n')]);
  t.same(data(parseSse([withBom])), ['x']);
  t.same(data(parseSse(['\ufeffdata: y\n\n'])), ['y']);
});

const SAMPLE =
  'data: {"content":"阿克米 🚀 é"}\n\n: keep-alive\r\n\r\n' +
  'data: {"content":"格罗贝克斯"}\r\n\r\ndata: [DONE]\n\n';
const EXPECTED = ['{"content":"阿克米 🚀 é"}', '{"content":"格罗贝克斯"}', '[DONE]'];

t.test('every single split point, including inside UTF-8 characters', async (t) => {
  const b = bytes(SAMPLE);
  let midChar = 0;
  for (let cut = 1; cut < b.length; cut++) {
    if ((b[cut]! & 0xc0) === 0x80) midChar++;
    const got = data(parseSse(splitAt(b, [cut])));
    if (JSON.stringify(got) !== JSON.stringify(EXPECTED)) t.fail(`split at ${cut}`);
  }
  t.ok(midChar > 10, 'several cuts fall inside multi-byte characters');
  t.same(data(parseSse([...b].map((x) => new Uint8Array([x])))), EXPECTED, 'one byte at a time');
});

t.test('property: any chunking gives the same events', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), (cuts) => {
      const got = data(parseSse(splitAt(bytes(SAMPLE), cuts)));
      return JSON.stringify(got) === JSON.stringify(EXPECTED);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.nat({ max: 400 }), { maxLength: 10 }),
      (payloads, cuts) => {
        const clean = payloads.map((p) => p.replace(/[\r\n]/g, ' '));
        const text = clean.map((p) => `data: ${p}\r\n\r\n`).join('');
        const got = data(parseSse(splitAt(bytes(text), cuts)));
        // A payload that is all blank still yields an (empty-data-line) event.
        return JSON.stringify(got) === JSON.stringify(clean);
      },
    ),
    { numRuns: 300 },
  );
  t.pass('properties hold');
});

t.test("the sandbox server's stream pieces parse back into its chunks", async (t) => {
  for (const mode of ['standard', 'reasoning', 'search', 'reasoning_search'] as const) {
    const answer = sandboxAnswer('which laptop is best for students', mode);
    const o = { id: 'x', created: 1, model: 'sandbox' };
    const pieces = streamPieces(answer, o);
    const whole = concatPieces(pieces);
    const text = new TextDecoder().decode(whole);
    t.match(text, /\n: keep-alive\n\n/, `${mode}: has a keep-alive comment`);
    t.ok(text.endsWith('data: [DONE]\n\n'), `${mode}: ends with [DONE]`);
    // Some piece starts with a UTF-8 continuation byte: a write cut inside a character.
    t.ok(
      pieces.some((p) => p.length > 0 && (p[0]! & 0xc0) === 0x80),
      `${mode}: a write is cut inside a character`,
    );
    const parser = new SseParser();
    const events = pieces.flatMap((p) => parser.push(p));
    events.push(...parser.end());
    t.same(parser.comments, 1);
    const expected = [...streamChunks(answer, o).map((c) => JSON.stringify(c)), '[DONE]'];
    t.same(data(events), expected, `${mode}: events round-trip`);
  }
});

t.test('grouped stream pieces keep the bytes and their order', async (t) => {
  const pieces = streamPieces(sandboxAnswer('which laptop is best for students', 'search'), {
    id: 'x',
    created: 1,
    model: 'sandbox',
  });
  for (const writes of [1, 3, 8, pieces.length - 1]) {
    const groups = groupPieces(pieces, writes);
    t.ok(groups.length <= writes && groups.length > 0, `${writes}: at most ${writes} writes`);
    t.same(concatPieces(groups), concatPieces(pieces), `${writes}: same bytes`);
  }
  t.equal(groupPieces(pieces, 0), pieces, '0 leaves the pieces as they are');
  t.equal(groupPieces(pieces, pieces.length + 5), pieces, 'more writes than pieces: unchanged');
});
