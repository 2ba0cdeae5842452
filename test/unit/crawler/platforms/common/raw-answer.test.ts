import t from 'tap';
import {
  addCitedUrl,
  buildAnswer,
  emptyRaw,
  type RawAnswer,
} from '../../../../../crawler/platforms/common/raw-answer.js';

const raw = (fill: Partial<RawAnswer>): RawAnswer => ({ ...emptyRaw(), content: 'x', ...fill });
const refs = (r: RawAnswer) => buildAnswer(r).referenceList.map((x) => [x.index, x.title, x.url]);
const cited = (r: RawAnswer) => buildAnswer(r).citationList.map((x) => x.index);

t.test('a cited URL tagged with trackers is the listed source, with its title', async (t) => {
  // OpenAI: sources without titles, then annotations on `?utm_source=openai` URLs.
  const r = raw({
    searchResults: [
      { index: 1, title: '', url: 'https://a.example/' },
      { index: 2, title: '', url: 'https://b.example/p' },
    ],
  });
  addCitedUrl(r, 'https://b.example/p?utm_source=openai', 'B 的标题');
  t.same(refs(r), [
    [1, 'a.example', 'https://a.example/'],
    [2, 'B 的标题', 'https://b.example/p'],
  ]);
  t.same(cited(r), [2]);
});

t.test('among cited URLs, the first of one page is kept', async (t) => {
  const r = raw({});
  addCitedUrl(r, 'https://a.example/x?utm_source=openai', 'A');
  addCitedUrl(r, 'https://a.example/x#:~:text=acme', 'A again');
  addCitedUrl(r, 'https://b.example/');
  t.same(r.citedUrls, ['https://a.example/x?utm_source=openai', 'https://b.example/']);
  t.same(refs(r), [
    [1, 'A', 'https://a.example/x?utm_source=openai'],
    [2, 'b.example', 'https://b.example/'],
  ]);
  t.same(cited(r), [1, 2]);
});

t.test('a platform-numbered duplicate is dropped and its markers cite the kept one', async (t) => {
  const r = raw({
    content: '甲[2]。乙[3]。',
    searchResults: [
      { index: 1, title: 'A', url: 'https://a.example/x' },
      { index: 2, title: 'A', url: 'https://a.example/x?utm_source=share' },
      { index: 3, title: 'B', url: 'https://b.example/' },
    ],
  });
  t.same(refs(r), [
    [1, 'A', 'https://a.example/x'],
    [3, 'B', 'https://b.example/'],
  ]);
  t.same(cited(r), [1, 3]);
});

t.test('titles: the listing’s own first, the citation’s over a bare host', async (t) => {
  const r = raw({
    searchResults: [
      { title: 'Listed title', url: 'https://a.example/' },
      { title: 'b.example', url: 'https://b.example/' },
      { title: '', url: 'https://c.example/' },
      { title: 'C from a later listing', url: 'https://c.example/?gclid=9' },
    ],
  });
  addCitedUrl(r, 'https://a.example/?utm_source=openai', 'Annotation title');
  addCitedUrl(r, 'https://b.example/?utm_source=openai', 'B annotation');
  t.same(refs(r), [
    [1, 'Listed title', 'https://a.example/'],
    [2, 'B annotation', 'https://b.example/'],
    [3, 'C from a later listing', 'https://c.example/'],
  ]);
  t.same(cited(r), [1, 2]);
});
