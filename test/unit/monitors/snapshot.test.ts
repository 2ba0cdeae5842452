import t from 'tap';
import { snapshotCells, type ResultItem } from '../../../services/monitors/snapshot.js';
import type { Mention } from '../../../services/shared/contracts/brand.js';

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
): ResultItem => ({
  seq,
  result: {
    status,
    answerContent: answer,
    citationList: urls.map((url, index) => ({ index, title: '', url, site: '', icon: '' })),
  },
  brand: { mentions, mentioned: mentions.some((m) => m.count > 0), sentiment: null },
});

t.test('sub tasks fold into cells by seq: samples of one cell together', async (t) => {
  const shape = {
    prompts: 1,
    platforms: [
      {
        platform: 'sandbox',
        channel: 'api' as const,
        mode: 'search' as const,
        screenshot: 0 as const,
      },
      {
        platform: 'sandbox',
        channel: 'web' as const,
        mode: 'search' as const,
        screenshot: 0 as const,
      },
    ],
    samples: 3,
    keywords: ['Acme|acme.com', 'Globex'],
  };
  const cells = snapshotCells(shape, [
    item(
      0,
      'completed',
      'Acme first',
      [mention('Acme', 2, { position: 1, inCitations: true }), mention('Globex', 0)],
      ['https://acme.com/a', 'https://www.acme.com/b', 'https://news.example/x'],
    ),
    item(
      1,
      'completed',
      'Acme first',
      [mention('Acme', 1, { position: 2 }), mention('Globex', 1)],
      ['https://news.example/y'],
    ),
    item(2, 'failed', '', []),
    item(3, 'completed', 'nothing here', [mention('Acme', 0), mention('Globex', 0)]),
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
    positions: [1, 2],
    inReasoning: 0,
    inReferences: 0,
    inCitations: 1,
  });
  t.equal(api!.groups[1]!.mentioned, 1);
  t.strictSame(api!.citedDomains, { 'acme.com': 1, 'news.example': 2 }, 'once per answer');
  t.equal(api!.stability, 1);
  t.strictSame([web!.channel, web!.asked, web!.answered, web!.stability], ['web', 1, 1, null]);
});
