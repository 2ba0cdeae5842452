/**
 * The two witnesses of an answer (crawler/web/witness.ts): what only the
 * rendering changes agrees, lost or extra content disagrees with a readable
 * difference. The texts are the ones the issue-29 run recorded (Doubao's
 * renamed chunk event) and the replicas' own renderings.
 */
import t from 'tap';
import { compareWitnesses, normaliseAnswer } from '../../../../crawler/web/witness.js';
import { renderMarkdown } from '../../../../crawler/markdown.js';

/** The text a browser's innerText gives of rendered Markdown, near enough: tags out, entities back. */
const rendered = (md: string) =>
  renderMarkdown(md)
    .replace(/<\/(p|li|h\d|pre|tr)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

t.test('the Doubao answer that lost a sentence to a renamed chunk event', async (t) => {
  const stream = '**佳巧，引导式菜单对新手友好。';
  const page = '**佳能 R50**：机身小巧，引导式菜单对新手友好。';
  const v = compareWitnesses(stream, page);
  t.equal(v.agree, false);
  if (v.agree) return;
  // Compared as normalised (full-width punctuation as half-width, no spaces or Markdown).
  t.match(
    v.difference,
    /^the stream lacks "能R50:机身小" at character 1: /,
    'what was lost, where',
  );
  t.match(v.difference, /stream "佳巧,引导式菜/, "the stream's side");
  t.match(v.difference, /page "佳能R50:机身小巧,/, "the page's side");
  t.ok(v.difference.length < 160, `short: ${v.difference}`);
});

t.test('content only one side has is named as missing from the other', async (t) => {
  const whole = '电池技术分三类。磷酸铁锂成本低。三元锂能量密度高。';
  const v = compareWitnesses('电池技术分三类。三元锂能量密度高。', whole);
  t.match(v, { agree: false, difference: /^the stream lacks "磷酸铁锂成本低。"/ });
  const w = compareWitnesses(whole + '广告', whole);
  t.match(w, { agree: false, difference: /^the page lacks "广告"/ });
});

t.test('formatting only: the stream and the rendered page agree', async (t) => {
  const cases: [string, string, string][] = [
    ['list markers', '- 第一\n- 第二\n1. 第三\n2) 第四\n* 第五', '第一\n第二\n第三\n第四\n第五'],
    ['bold and italics', '**佳能 R50**：机身*小巧*，__轻__', '佳能 R50：机身小巧，轻'],
    [
      'links and images',
      '见[官网](https://a.example/x)与![图](https://a.example/i.png)',
      '见官网与图',
    ],
    ['code fences', '代码：\n```ts\nconst a = 1;\n```\n完', '代码：\nconst a = 1;\n完'],
    ['inline code', '用 `npm ci` 安装', '用 npm ci 安装'],
    ['extra blank lines', '第一段\n\n\n\n第二段\n', '第一段\n第二段'],
    ['full- and half-width spaces', '佳能\u3000R50 ：好', '佳能 R50：好'],
    ['full-width letters and digits', 'ＡＩ模型２０２６', 'AI模型2026'],
    ['headings and quotes', '## 结论\n> 引用的话', '结论\n引用的话'],
    [
      'citation markers',
      '续航长[^1^]，充电快[citation:2][reference:3][4, 5]。',
      '续航长，充电快。',
    ],
    ['a table', '| 型号 | 价格 |\n| --- | --- |\n| R50 | 5千 |', '型号\t价格\nR50\t5千'],
    ['CRLF line ends', '一\r\n二\r\n', '一\n二'],
    ['Kimi cite marks', '值得关注\uE200cite\uE202web_search:1#1\uE201。', '值得关注。'],
    ['cite marks the page draws', '值得关注\uE200cite\uE202web_search:1#1\uE201。', '值得关注1。'],
    [
      'two cite marks with text between',
      '关注\uE200cite\uE202web_search:1#1\uE201。\n2. 现状：规模大\uE200cite\uE202web_search:1#3\uE201。',
      '关注\uE200cite\uE202web_search:1#1\uE201。 2. 现状：规模大\uE200cite\uE202web_search:1#3\uE201。',
    ],
    ['inline list items', '要点：\n1. 背景\n2. 现状', '要点： 1. 背景 2. 现状'],
  ];
  for (const [what, stream, page] of cases)
    t.same(compareWitnesses(stream, page), { agree: true }, what);
});

t.test('Markdown through a real renderer agrees with its source', async (t) => {
  const md = [
    '# 新能源汽车的电池技术',
    '',
    '主流路线有**三条**[^1^]：',
    '',
    '1. 磷酸铁锂：成本低，寿命长；',
    '2. 三元锂：*能量密度*高[^2^]；',
    '3. 固态电池：见 [报道](https://news.example/a)。',
    '',
    '```',
    'energy = V * Ah',
    '```',
  ].join('\n');
  t.same(compareWitnesses(md, rendered(md)), { agree: true });
  t.equal(compareWitnesses(md, rendered(md.replace('三元锂', '钠离子'))).agree, false);
});

t.test('normalising keeps the words and drops the syntax', async (t) => {
  t.equal(normaliseAnswer('  **A** b\n\n- c [1]  '), 'Abc');
  t.equal(normaliseAnswer(''), '');
  t.equal(normaliseAnswer('3 * 4 = 12'), '34=12', 'a lone asterisk is dropped on both sides alike');
});
