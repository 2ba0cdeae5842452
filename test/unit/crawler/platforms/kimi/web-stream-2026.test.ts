/**
 * Kimi's 2026 stream shapes (web-channel.md "Kimi, 2026"): search as
 * `block.tool` (`web_search:N`) mirrored to `message.refs.searchChunks`,
 * citations as private-use marks around `cite` and `web_search:N#k`, the
 * legacy `k1` reasoning event and `model: "k1.5"`; and the tolerance rule:
 * frames without answer content are kept, renamed content is drift.
 */
import t from 'tap';
import { connectEnvelope as envelope } from '../../../../helpers/connect-envelope.js';
import { KimiStreamParser } from '../../../../../crawler/platforms/kimi/web/stream.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { effectiveMode } from '../../../../../crawler/platforms/kimi/web/request-mode.js';
import { citationsOf } from '../../../../../crawler/platforms/kimi/web/citations.js';

const chunk = (n: number, host: string) => ({
  searchResult: {
    base: {
      title: `${host} ${n}`,
      url: `https://${host}/${n}`,
      siteName: host,
      iconUrl: `https://${host}/icon.png`,
      snippet: '…',
    },
    refIndex: n,
  },
});

const frames2026 = [
  { heartbeat: {} },
  { op: 'set', mask: 'block.think', block: { id: 't', think: { content: '想一想' } } },
  {
    op: 'set',
    mask: 'block.tool',
    block: { id: 'w', tool: { toolCallId: 'web_search:1', name: 'web_search', args: '{}' } },
  },
  {
    op: 'set',
    mask: 'block.tool.contents',
    block: {
      id: 'w',
      tool: {
        toolCallId: 'web_search:1',
        contents: [chunk(1, 'a.example'), chunk(2, 'b.example')],
      },
    },
  },
  { op: 'set', mask: 'block.text', block: { id: 'x', text: { content: '' } } },
  {
    op: 'append',
    mask: 'block.text.content',
    block: { id: 'x', text: { content: '第一句\uE200cite\uE202web_search:1#2\uE201。' } },
  },
  {
    op: 'set',
    mask: 'message.refs',
    message: {
      refs: {
        searchChunks: [chunk(1, 'a.example'), chunk(2, 'b.example')],
        usedSearchChunks: [chunk(2, 'b.example')],
      },
    },
  },
  { op: 'set', mask: 'message.feedback', message: { feedback: {} } },
  { telemetry: { t: 1 } },
  { done: {} },
];

t.test('kimi 2026: block.tool search, refs, private-use citations, reported mode', async (t) => {
  const p = new KimiStreamParser({ mimeType: 'application/connect+json' });
  for (const f of frames2026) p.push(envelope(f));
  p.push(envelope({}, 2));
  t.ok(p.done);
  const answer = buildAnswer(p.raw());
  t.equal(answer.answerContent, '第一句[^2^]。', 'the mark becomes the [^n^] style');
  t.same(
    answer.referenceList.map((r) => [r.index, r.url, r.site, r.icon]),
    [
      [1, 'https://a.example/1', 'a.example', 'https://a.example/icon.png'],
      [2, 'https://b.example/2', 'b.example', 'https://b.example/icon.png'],
    ],
  );
  t.same(
    answer.citationList.map((r) => r.index),
    [2],
  );
  t.same(p.report(), {
    thinking: true,
    search: true,
    ignored: ['frame mask "message.feedback"', 'a frame with keys telemetry'],
  });
});

t.test('private-use marks: several refs, unknown refs dropped, [^n^] kept', async (t) => {
  const resolve = (call: string, k: number) =>
    call === 'web_search:1' ? [4, 7][k - 1] : undefined;
  t.same(
    citationsOf('甲\uE200cite\uE202web_search:1#1\uE202web_search:1#2\uE201乙[^3^]', resolve),
    {
      text: '甲[^4^][^7^]乙[^3^]',
      cited: [4, 7, 3],
    },
  );
  t.same(citationsOf('丙\uE200cite\uE202web_search:9#1\uE201', resolve), { text: '丙', cited: [] });
});

t.test('renamed content is reported as not applied; a frame without text is skipped', async (t) => {
  const p = new KimiStreamParser({ mimeType: 'application/connect+json' });
  p.push(envelope({ op: 'append', mask: 'block.text', block: { text: { value: '字' } } }));
  t.same(p.report().unplaced, ['block.text with text in "text.value" instead of "content"']);
  t.equal(p.raw().content, '');
  const q = new KimiStreamParser({ mimeType: 'application/connect+json' });
  q.push(envelope({ block: { id: 'x', text: { content: '字' } } }));
  t.same(q.report().unplaced, ['a frame with keys block, text in "block.text.content"']);
  const r = new KimiStreamParser({ mimeType: 'application/connect+json' });
  r.push(envelope({}));
  r.push(envelope({ op: 'append', mask: 'block.text', block: { id: 'x', text: {} } }));
  t.equal(r.report().unplaced, undefined, 'sentinels: nothing unplaced');
});

t.test('legacy: the k1 event is the reasoning; model k1.5 asks for it', async (t) => {
  const p = new KimiStreamParser({ mimeType: 'text/event-stream' });
  const events = [
    { event: 'req', id: 'r' },
    { event: 'k1', text: '先想' },
    { event: 'k1', text: '一想' },
    { event: 'cmpl', text: '答案' },
    { event: 'all_done' },
  ];
  p.push(new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
  t.ok(p.done);
  t.equal(p.raw().reasoningContent, '先想一想');
  t.equal(p.raw().content, '答案');
  t.same(p.report(), { thinking: true, search: false, ignored: [] });
  const body = (o: object) => JSON.stringify({ messages: [], use_search: false, ...o });
  t.equal(effectiveMode(body({ model: 'k1.5', kimiplus_id: 'kimi' })), 'reasoning');
  t.equal(effectiveMode(body({ model: 'kimi', kimiplus_id: 'kimi' })), 'standard');
});
