import t from 'tap';
import { clipAround, joinTexts, spansOf } from '../../../crawler/mentions/frame.js';

const VIEWPORT = { width: 1280, height: 900 };

t.test('clipAround: no clip when the page fits the viewport', async (t) => {
  const mention = { x: 100, y: 800, width: 40, height: 20 };
  t.equal(clipAround({ width: 1280, height: 900 }, VIEWPORT, mention), null);
  t.equal(clipAround({ width: 1280, height: 600 }, VIEWPORT, mention), null);
  t.ok(clipAround({ width: 1280, height: 901 }, VIEWPORT, mention), 'one pixel taller: a clip');
});

t.test('clipAround: centred on the mention', async (t) => {
  t.same(
    clipAround({ width: 1280, height: 5000 }, VIEWPORT, { x: 600, y: 2490, width: 80, height: 20 }),
    {
      x: 0,
      y: 2050,
      width: 1280,
      height: 900,
    },
  );
});

t.test('clipAround: kept within the page at its top and bottom', async (t) => {
  const page = { width: 1280, height: 3000 };
  t.same(clipAround(page, VIEWPORT, { x: 10, y: 30, width: 50, height: 20 }), {
    x: 0,
    y: 0,
    width: 1280,
    height: 900,
  });
  t.same(clipAround(page, VIEWPORT, { x: 10, y: 2980, width: 50, height: 20 }), {
    x: 0,
    y: 2100,
    width: 1280,
    height: 900,
  });
});

t.test('clipAround: a page wider than the viewport is cut around the mention too', async (t) => {
  const page = { width: 3000, height: 3000 };
  t.same(clipAround(page, VIEWPORT, { x: 1960, y: 1490, width: 80, height: 20 }), {
    x: 1360,
    y: 1050,
    width: 1280,
    height: 900,
  });
  t.same(
    clipAround(page, VIEWPORT, { x: 2990, y: 1490, width: 10, height: 20 })?.x,
    1720,
    'right edge',
  );
  t.same(
    clipAround({ width: 800, height: 3000 }, VIEWPORT, { x: 700, y: 1490, width: 10, height: 20 }),
    {
      x: 0,
      y: 1050,
      width: 800,
      height: 900,
    },
    'a narrow page: its own width',
  );
});

t.test('joinTexts: nodes of one block read as one run, blocks apart', async (t) => {
  const texts = [
    { text: 'Try ', block: 0 },
    { text: 'Ac', block: 0 },
    { text: 'me', block: 0 },
    { text: 'Corp', block: 1 },
  ];
  t.same(joinTexts(texts), { text: 'Try Acme\nCorp', starts: [0, 4, 6, 9] });
  t.same(joinTexts([]), { text: '', starts: [] });
});

t.test('spansOf: ranges of the joined text as text node spans', async (t) => {
  const texts = [
    { text: 'Try ', block: 0 },
    { text: 'Ac', block: 0 },
    { text: 'me', block: 0 },
    { text: 'Acme Corp', block: 1 },
  ];
  const { starts } = joinTexts(texts);
  t.same(
    spansOf(texts, starts, [{ start: 4, end: 8 }]),
    [{ startNode: 1, startOffset: 0, endNode: 2, endOffset: 2 }],
    'across inline elements',
  );
  t.same(
    spansOf(texts, starts, [
      { start: 9, end: 13 },
      { start: 14, end: 18 },
    ]),
    [
      { startNode: 3, startOffset: 0, endNode: 3, endOffset: 4 },
      { startNode: 3, startOffset: 5, endNode: 3, endOffset: 9 },
    ],
    'within one node',
  );
  t.same(spansOf(texts, starts, [{ start: 8, end: 9 }]), [], 'only the break between blocks');
  t.same(spansOf(texts, starts, [{ start: 1, end: 3 }]), [
    { startNode: 0, startOffset: 1, endNode: 0, endOffset: 3 },
  ]);
});
