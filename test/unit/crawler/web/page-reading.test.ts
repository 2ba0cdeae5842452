/**
 * The page's reading stands in for a stream that lost part of the answer only
 * when it is whole (crawler/web/page-reading.ts): its text is the rendered
 * text, and it holds every source, source field, citation, the reasoning and
 * the follow-ups the broken stream still held.
 */
import t from 'tap';
import { pageReadingLacks } from '../../../../crawler/web/page-reading.js';
import type { Answer, Reference } from '../../../../services/shared/contracts/answer.js';

const ref = (i: number, over: Partial<Reference> = {}): Reference => ({
  index: i,
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  site: 'Example',
  icon: `https://example.com/${i}.png`,
  ...over,
});

const answer = (over: Partial<Answer> = {}): Answer => ({
  answerContent: '**佳能 R50**：机身小巧，引导式菜单。',
  referenceList: [ref(1), ref(2)],
  citationList: [ref(1)],
  reasoningProcess: { summary: '', content: '先比较机身。' },
  recommendedQuestions: ['R50 和 R10 哪个好？'],
  mediaContent: [],
  ...over,
});

const rendered = '佳能 R50：机身小巧，引导式菜单。';

t.test('a whole reading lacks nothing', async (t) => {
  t.same(pageReadingLacks({ fromPage: answer(), stream: answer(), rendered }), []);
  // The broken stream held less than the page: nothing to lack.
  const partial = answer({ answerContent: '**佳巧，引导式菜单。', reasoningProcess: null });
  t.same(pageReadingLacks({ fromPage: answer(), stream: partial, rendered }), []);
});

t.test('what a reading a site change left partial lacks is named', async (t) => {
  const stream = answer();
  t.same(
    pageReadingLacks({
      fromPage: answer({ referenceList: [ref(1, { icon: '', site: '' })], citationList: [] }),
      stream,
      rendered,
    }),
    [
      'the site of https://example.com/1',
      'the icon of https://example.com/1',
      'the source https://example.com/2',
      'the citation of https://example.com/1',
    ],
  );
  t.same(
    pageReadingLacks({
      fromPage: answer({
        reasoningProcess: { summary: '', content: ' ' },
        recommendedQuestions: [],
      }),
      stream,
      rendered,
    }),
    ['the reasoning', 'follow-up questions'],
  );
  t.same(pageReadingLacks({ fromPage: answer(), stream, rendered: '别的回答' }), [
    'its text is not the rendered text',
  ]);
});
