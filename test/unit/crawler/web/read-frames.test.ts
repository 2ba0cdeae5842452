/**
 * The kit's read loop over a captured stream (crawler/web/read-frames.ts),
 * with Gemini's real parser as the frame reader: a connection that fails
 * after the end marker leaves the answer complete (the failure noted); one
 * that fails before it is the sub task's failure.
 */
import t from 'tap';
import { readFrames, readerOver } from '../../../../crawler/web/read-frames.js';
import { EvidenceLog } from '../../../../crawler/web/evidence-log.js';
import { GeminiStream } from '../../../../crawler/platforms/gemini/web/stream.js';
import { chatChunks, GUARD } from '../../../../replicas/gemini/frames.js';

const IDS = { cid: 'c_0123456789', rid: 'r_0123456789', rcid: 'rc_0123456789' };

/** The chunks as the capture yields them, then the connection failing. */
async function* failingAfter(chunks: string[]): AsyncIterable<Buffer> {
  for (const c of chunks) yield Buffer.from(c);
  throw new Error('the stream failed: net::ERR_ABORTED');
}

function reader() {
  const stream = new GeminiStream();
  const feed = {
    push: (c: Buffer) => stream.push(c).forEach((x) => stream.apply(x)),
    end: () => stream.end().forEach((x) => stream.apply(x)),
  };
  return readerOver(feed, {
    complete: () => stream.finished,
    formatVersion: () => stream.formatVersion,
    read: () => stream.result(),
  });
}

const chunks = (kind: 'normal' | 'no_end') => [
  GUARD,
  ...chatChunks('tides', 'standard', kind, IDS),
];

t.test('a failure after the end marker: complete, the failure noted', async (t) => {
  const evidence = new EvidenceLog();
  const r = reader();
  const end = await readFrames(failingAfter(chunks('normal')), r, {
    stallMs: 5_000,
    evidence,
    signal: AbortSignal.timeout(10_000),
  });
  t.equal(end, 'trailer-done');
  t.ok(r.complete);
  t.match(r.read(), { content: /^## tides/ });
  t.ok(
    evidence
      .list()
      .some((e) => e.kind === 'note' && /after the end marker, the stream failed/.test(e.text)),
  );
});

t.test('a failure before the end marker is the failure', async (t) => {
  const r = reader();
  await t.rejects(
    readFrames(failingAfter(chunks('no_end')), r, {
      stallMs: 5_000,
      evidence: new EvidenceLog(),
      signal: AbortSignal.timeout(10_000),
    }),
    /ERR_ABORTED/,
  );
});
