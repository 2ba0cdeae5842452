import t from 'tap';
import { renderAnswerPage } from '../../../crawler/answer-page.js';
import type { Answer, Reference } from '../../../services/shared/contracts/answer.js';

const ref = (index: number, extra: Partial<Reference> = {}): Reference => ({
  index,
  title: `Title ${index}`,
  url: `https://site${index}.example/page`,
  site: `site${index}.example`,
  icon: '',
  ...extra,
});

const answer = (extra: Partial<Answer> = {}): Answer => ({
  answerContent: 'Acme makes **good** shoes [1].',
  referenceList: [ref(1), ref(2), ref(3)],
  citationList: [ref(1), ref(3)],
  reasoningProcess: null,
  recommendedQuestions: [],
  mediaContent: [],
  ...extra,
});

/** The text between `<tag ...>` and its close, for the first element matching `open`. */
function section(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  if (start < 0) return '';
  const end = html.indexOf(close, start + open.length);
  return html.slice(start + open.length, end);
}

t.test('a full page', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'ChatGPT',
    prompt: 'best running shoes?',
    answer: answer({ recommendedQuestions: ['Is Acme cheap?', 'Where to buy?'] }),
  });
  t.ok(html.startsWith('<!doctype html><html><head><meta charset="utf-8">'));
  t.ok(html.endsWith('</main></body></html>'));
  t.equal(section(html, '<title>', '</title>'), 'ChatGPT');
  t.equal(section(html, '<header>', '</header>'), 'ChatGPT');
  t.equal(section(html, '<div class="prompt">', '</div>'), 'best running shoes?');
  t.equal(
    section(html, '<div class="answer">', '</div>\n'),
    '<p>Acme makes <strong>good</strong> shoes <sup class="cite">[1]</sup>.</p>',
  );
  t.equal(
    section(html, '<h4>Sources</h4><ol class="refs">', '</ol>'),
    '<li class="cited"><span class="n">[1]</span> <a href="https://site1.example/page">Title 1</a> <span class="site">site1.example</span></li>' +
      '<li class=""><span class="n">[2]</span> <a href="https://site2.example/page">Title 2</a> <span class="site">site2.example</span></li>' +
      '<li class="cited"><span class="n">[3]</span> <a href="https://site3.example/page">Title 3</a> <span class="site">site3.example</span></li>',
  );
  t.equal(
    section(html, '<h4>Related</h4><ul class="related">', '</ul>'),
    '<li>Is Acme cheap?</li><li>Where to buy?</li>',
  );
  t.equal(html.includes('class="reasoning"'), false, 'no reasoning block without reasoning');
  t.equal(html.includes('<details'), false);
});

t.test('the prompt and the label are escaped', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'Sandbox <中文> & "co"',
    prompt: '<script>alert("x")</script> & \'q\'',
    answer: answer(),
  });
  t.equal(
    section(html, '<div class="prompt">', '</div>'),
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;',
  );
  t.equal(section(html, '<title>', '</title>'), 'Sandbox &lt;中文&gt; &amp; &quot;co&quot;');
  t.equal(section(html, '<header>', '</header>'), 'Sandbox &lt;中文&gt; &amp; &quot;co&quot;');
  t.equal(html.includes('<script>'), false);
});

t.test('the answer goes through the Markdown renderer (escaped)', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({ answerContent: '# Title\n<img src=x onerror=alert(1)>' }),
  });
  t.equal(
    section(html, '<div class="answer">', '</div>\n'),
    '<h1>Title</h1>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>',
  );
  t.equal(html.includes('<img'), false);
});

t.test('references: cited ones are marked, fields are escaped', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({
      referenceList: [
        ref(7, { title: '<b>T</b>', url: 'https://e.example/?a=1&b="2"', site: 'e&co' }),
        ref(8),
      ],
      citationList: [ref(8)],
    }),
  });
  t.equal(
    section(html, '<ol class="refs">', '</ol>'),
    '<li class=""><span class="n">[7]</span> <a href="https://e.example/?a=1&amp;b=&quot;2&quot;">&lt;b&gt;T&lt;/b&gt;</a> <span class="site">e&amp;co</span></li>' +
      '<li class="cited"><span class="n">[8]</span> <a href="https://site8.example/page">Title 8</a> <span class="site">site8.example</span></li>',
  );
});

t.test('cited is decided by index, not by object identity', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({ referenceList: [ref(1)], citationList: [{ ...ref(1), title: 'other' }] }),
  });
  t.match(section(html, '<ol class="refs">', '</ol>'), /^<li class="cited">/);
});

t.test('no references and no questions: no sections', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({ referenceList: [], citationList: [], recommendedQuestions: [] }),
  });
  t.equal(html.includes('<h4>Sources</h4>'), false);
  t.equal(html.includes('<ol class="refs">'), false);
  t.equal(html.includes('<h4>Related</h4>'), false);
  t.equal(html.includes('<ul class="related">'), false);
});

t.test('reasoning only when present', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({
      answerContent: 'Final.',
      reasoningProcess: { summary: 'Thought <for> 3 s', content: '- step **one**\n- step two' },
    }),
  });
  t.equal(
    section(html, '<div class="answer">', '</div>\n'),
    '<details class="reasoning" open><summary>Reasoning: Thought &lt;for&gt; 3 s</summary>' +
      '<div><ul>\n<li>step <strong>one</strong></li>\n<li>step two</li>\n</ul></div></details>' +
      '<p>Final.</p>',
  );
  const without = renderAnswerPage({ platformLabel: 'X', prompt: 'p', answer: answer() });
  t.equal(without.includes('<details'), false);
  t.equal(without.includes('Reasoning:'), false);
});

t.test('related questions are escaped', async (t) => {
  const html = renderAnswerPage({
    platformLabel: 'X',
    prompt: 'p',
    answer: answer({ recommendedQuestions: ['<i>why</i>?', 'a & b'] }),
  });
  t.equal(
    section(html, '<ul class="related">', '</ul>'),
    '<li>&lt;i&gt;why&lt;/i&gt;?</li><li>a &amp; b</li>',
  );
});
