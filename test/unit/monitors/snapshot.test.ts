import t from 'tap';
import { snapshotCells, type ResultItem } from '../../../services/monitors/snapshot.js';
import type { Mention } from '../../../services/shared/contracts/brand.js';
import type { Channel, Mode } from '../../../services/shared/platforms.js';

const mention = (keyword: string, count: number, extra: Partial<Mention> = {}): Mention => ({
  keyword,
  count,
  firstIndex: count > 0 ? 0 : null,
  position: null,
  groupRank: null,
  inReasoning: false,
  inReferences: false,
  inCitations: false,
  ...extra,
});

const item = (
  seq: number,
  status: string,
  answer: string,
  mentions: Mention[],
  urls: string[] = [],
  modelReported?: string | null,
): ResultItem => ({
  seq,
  result: {
    status,
    answerContent: answer,
    citationList: urls.map((url, index) => ({ index, title: '', url, site: '', icon: '' })),
    ...(modelReported === undefined ? {} : { modelReported }),
  },
  brand: { mentions, mentioned: mentions.some((m) => m.count > 0), sentiment: null },
});

const config = (platform: string, channel: Channel, mode: Mode) => ({
  platform,
  channel,
  mode,
  screenshot: 0 as const,
});

t.test('sub tasks fold into cells by seq: samples of one cell together', async (t) => {
  const shape = {
    prompts: 1,
    platforms: [config('sandbox', 'api', 'search'), config('sandbox', 'web', 'search')],
    samples: 3,
    keywords: ['Acme|acme.com', 'Globex'],
    targetWidth: 0.3,
  };
  const cells = snapshotCells(shape, [
    item(
      0,
      'completed',
      'Acme first',
      [mention('Acme', 2, { position: 1, inCitations: true }), mention('Globex', 0)],
      ['https://acme.com/a', 'https://www.acme.com/b', 'https://news.example/x'],
      'gpt-4o',
    ),
    item(
      1,
      'completed',
      'Acme first',
      [mention('Acme', 1, { position: 2 }), mention('Globex', 1)],
      ['https://news.example/y'],
      'gpt-4o-mini',
    ),
    item(2, 'failed', '', [], [], null),
    item(3, 'completed', 'nothing here', [
      mention('Acme', 0, { inReasoning: true }),
      mention('Globex', 0),
    ]),
  ]);
  t.equal(cells.length, 2);
  const [api, web] = cells;
  t.strictSame(
    [api!.channel, api!.asked, api!.answered],
    ['api', 3, 2],
    'a failure is asked, not answered',
  );
  t.strictSame(api!.groups[0], {
    keyword: 'Acme',
    mentioned: 2,
    mentionCount: 3,
    positions: [1, 2],
    inReasoning: 0,
    inReferences: 0,
    inCitations: 1,
    droppedAfterReasoning: 0,
  });
  t.strictSame(api!.models, ['gpt-4o', 'gpt-4o-mini'], 'distinct, sorted; null and absent skipped');
  t.equal(api!.targetWidth, 0.3);
  t.ok(Math.abs(api!.widthReached! - (1 - 0.342380227506653)) < 1e-12, '2 of 2: Wilson [0.342, 1]');
  t.strictSame(web!.models, [], 'no model reported: none');
  t.equal(web!.groups[0]!.droppedAfterReasoning, 1, 'in the reasoning, not in the answer');
  t.equal(api!.groups[1]!.mentioned, 1);
  t.strictSame(api!.citedDomains, { 'acme.com': 1, 'news.example': 2 }, 'once per answer');
  t.equal(api!.stability, 1);
  t.strictSame([web!.channel, web!.asked, web!.answered, web!.stability], ['web', 1, 1, null]);
});

t.test('an answer that ran in another mode (a silent fallback) is counted apart', async (t) => {
  const shape = {
    prompts: 1,
    platforms: [config('sandbox-web', 'web', 'reasoning_search')],
    samples: 3,
    keywords: ['Acme'],
    targetWidth: null,
  };
  const ran = (seq: number, effectiveMode: string | undefined, count: number): ResultItem => {
    const it = item(seq, 'completed', 'an answer', [mention('Acme', count)]);
    return effectiveMode === undefined ? it : { ...it, result: { ...it.result, effectiveMode } };
  };
  const [cell] = snapshotCells(shape, [
    ran(0, 'reasoning_search', 1),
    ran(1, 'standard', 1),
    ran(2, undefined, 0),
  ]);
  t.strictSame(
    [cell!.asked, cell!.answered, cell!.ranOtherMode],
    [3, 2, 1],
    'asked three times; two answers ran in the mode asked (absent: as asked), one fell back',
  );
  t.equal(cell!.groups[0]!.mentioned, 1, "the fallback's mention is not in the figures");
});
