import t from 'tap';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { brandFields } from '../../../services/shared/brand/mentions.js';

const groups = keywordGroups([
  'Acme|阿克米|acme.com',
  'Beta|贝塔|beta.io',
  'Gamma',
  'Delta|delta-cloud',
]);

const ref = (index: number, title: string, url: string, site = ''): Reference => ({
  index,
  title,
  url,
  site,
  icon: '',
});

/** A group the answer does not name, in no reasoning or source. */
const absent = (keyword: string) => ({
  keyword,
  count: 0,
  firstIndex: null,
  position: null,
  groupRank: null,
  inReasoning: false,
  inReferences: false,
  inCitations: false,
});

t.test(
  'one mention per group, in group order, with counts, first offsets, positions and ranks',
  async (t) => {
    const answerContent = [
      '## 推荐', // 0..5
      '1. **贝塔** is cheap; [Beta](https://beta.io) again.',
      '2. Acme (阿克米) leads. See https://gamma.com/Gamma.',
    ].join('\n');
    const { mentions, mentioned } = brandFields(groups, {
      answerContent,
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
    });
    t.equal(mentioned, true);
    t.same(mentions, [
      {
        keyword: 'Acme',
        count: 2,
        firstIndex: answerContent.indexOf('Acme'),
        position: 2,
        groupRank: 2,
        inReasoning: false,
        inReferences: false,
        inCitations: false,
      },
      {
        keyword: 'Beta',
        count: 2,
        firstIndex: answerContent.indexOf('贝塔'),
        position: 1,
        groupRank: 1,
        inReasoning: false,
        inReferences: false,
        inCitations: false,
      },
      absent('Gamma'),
      absent('Delta'),
    ]);
  },
);

t.test('reasoning, references and citations', async (t) => {
  const referenceList = [
    ref(1, 'Gamma review', 'https://example.com/a'), // title
    ref(2, 'News', 'https://news.example.com/b', '阿克米官网'), // site
    ref(3, 'Pricing', 'https://docs.beta.io/p'), // a declared domain's subdomain
    ref(4, 'Cloud', 'https://www.delta-cloud.cn/'), // an alias as a host label
    ref(5, 'Unrelated', 'https://notacme.com/acme'), // neither host label nor path
  ];
  const { mentions, mentioned } = brandFields(groups, {
    answerContent: 'Nothing named here.',
    referenceList,
    citationList: [referenceList[2]!, referenceList[4]!],
    reasoningProcess: { summary: 'Looking at ACME', content: '比较贝塔…' },
  });
  t.equal(mentioned, false, 'only the answer makes a mention');
  t.same(
    mentions.map((m) => [
      m.keyword,
      m.count,
      m.position,
      m.groupRank,
      m.inReasoning,
      m.inReferences,
      m.inCitations,
    ]),
    [
      ['Acme', 0, null, null, true, true, false],
      ['Beta', 0, null, null, true, true, true],
      ['Gamma', 0, null, null, false, true, false],
      ['Delta', 0, null, null, false, true, false],
    ],
  );
});

t.test(
  'host rule: an alias equal to a label or a run of labels; not part of a label',
  async (t) => {
    const g = keywordGroups(['Acme|acme.co', 'Beta']);
    const fields = (url: string) =>
      brandFields(g, {
        answerContent: '',
        referenceList: [ref(1, '', url)],
        citationList: [],
        reasoningProcess: null,
      }).mentions.map((m) => m.inReferences);
    t.same(fields('https://www.acme.co.uk/'), [true, false], 'acme.co as labels');
    t.same(fields('https://acme.example.com/'), [true, false], 'acme as a label');
    t.same(fields('https://BETA.example.com/'), [false, true], 'any case');
    t.same(fields('https://acme-cloud.com/'), [false, false], 'not inside a label');
    t.same(fields('https://betamax.com/'), [false, false]);
    t.same(fields('not a url'), [false, false], 'no host');
  },
);

t.test('no groups, no mentions; an empty answer mentions none', async (t) => {
  const answer = {
    answerContent: 'Acme',
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
  };
  t.same(brandFields([], answer), { mentions: [], mentioned: false });
  const empty = brandFields(groups, { ...answer, answerContent: '' });
  t.equal(empty.mentioned, false);
  t.same(
    empty.mentions.map((m) => m.count),
    [0, 0, 0, 0],
  );
});

t.test(
  'without a list, positions and ranks follow first mentions even when the counts differ',
  async (t) => {
    const { mentions } = brandFields(groups, {
      answerContent: 'Gamma first. Then Delta-cloud, Acme, Acme, Acme and Gamma.',
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
    });
    t.same(
      mentions.map((m) => [m.keyword, m.count, m.position, m.groupRank]),
      [
        ['Acme', 3, 3, 3],
        ['Beta', 0, null, null],
        ['Gamma', 2, 1, 1],
        ['Delta', 1, 2, 2],
      ],
    );
  },
);

t.test(
  'position counts every brand the answer recommends; group rank only the groups',
  async (t) => {
    const only = keywordGroups(['Acme']);
    const { mentions } = brandFields(only, {
      answerContent: [
        'The best options:',
        '',
        '1. **Stark Industries** — the most complete suite.',
        '2. **Acme** — cheaper, and Stark Industries integrates with it.',
        '3. **Globex** — for large teams.',
      ].join('\n'),
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
    });
    t.match(mentions, [{ keyword: 'Acme', count: 1, position: 2, groupRank: 1 }]);
  },
);
