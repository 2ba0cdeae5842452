import t from 'tap';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { findMentions } from '../../../services/shared/brand/matcher.js';
import { entryLists, positionsOf } from '../../../services/shared/brand/recommended.js';
import { brandsFor, sandboxAnswer } from '../../../sandbox/answers.js';

/** The entries' names as written, per list. */
const names = (answer: string) =>
  entryLists(answer).map((list) => list.map((e) => answer.slice(e.start, e.end)));

/** Positions per group, from the mentions the matcher finds. */
function positions(entries: string[], answer: string) {
  const groups = keywordGroups(entries);
  const found = findMentions(answer, groups).map((m) => ({
    group: groups.findIndex((g) => g.keyword === m.keyword),
    start: m.start,
    end: m.end,
  }));
  return positionsOf(groups.length, answer, found);
}

t.test('list items are named by their leading bold or link text', async (t) => {
  t.same(
    names(
      [
        '1. **Stark Industries** — the most complete suite',
        '2. __Acme__: cheaper',
        '3) [Globex](https://globex.example) for large teams',
        '- [ ] **Initech** (a task box)',
      ].join('\n'),
    ),
    [['**Stark Industries**', '__Acme__', '[Globex](https://globex.example)'], ['**Initech**']],
  );
});

t.test('otherwise by the text before the first separator, or the whole item', async (t) => {
  t.same(
    names(
      [
        '- Acme – cheap',
        '- Globex - for large teams',
        '- Initech: fast',
        '- 阿克米：性价比高',
        '- Umbrella (formerly Hooli)',
        '- 格罗贝克斯，适合大团队',
        '- Stark Industries. It leads.',
        '- Hooli',
        '-   ',
      ].join('\n'),
    ),
    [
      [
        'Acme',
        'Globex',
        'Initech',
        '阿克米',
        'Umbrella',
        '格罗贝克斯',
        'Stark Industries',
        'Hooli',
      ],
    ],
  );
});

t.test('table rows are named by their first cell that holds a letter', async (t) => {
  t.same(
    names(
      [
        '| # | Brand | Price |',
        '| --- | --- | --- |',
        '| 1 | **Stark Industries** | $$$ |',
        '| 2 | Acme \\| Cloud | $ |',
        '',
        'Brand | Best for',
        ':-- | --:',
        'Globex | Enterprises',
      ].join('\n'),
    ),
    [['**Stark Industries**', 'Acme \\| Cloud'], ['Globex']],
  );
});

t.test('nested items form lists of their own; code fences are skipped', async (t) => {
  t.same(
    names(
      [
        '1. **Enterprise**',
        '   - **Stark**: suite',
        '   - **Acme**: cheaper',
        '',
        '   Continued text of the first item.',
        '2. **Small teams**',
        '    * Hooli',
        '```',
        '- **NotAList**',
        '```',
        'A paragraph ends the lists.',
        '+ **Globex**',
      ].join('\n'),
    ),
    [['**Enterprise**', '**Small teams**'], ['**Stark**', '**Acme**'], ['Hooli'], ['**Globex**']],
  );
});

t.test('a brand recommended second after one the user did not type is at position 2', async (t) => {
  const answer = '1. **Stark Industries** is the leader.\n2. **Acme** is cheaper.\n';
  t.same(positions(['Acme'], answer), [2]);
  t.same(positions(['Acme', 'Stark Industries'], answer), [2, 1]);
});

t.test(
  'only lists that name a group count; a list then a table of the same brands once',
  async (t) => {
    const answer = [
      '## What matters',
      '- **Pricing**: Acme is the cheapest',
      '- **Support**: Globex answers fastest',
      '',
      '## Picks',
      '1. **Stark Industries**',
      '2. **Globex**',
      '3. **Acme**',
      '',
      '| Brand | Price |',
      '| --- | --- |',
      '| Stark Industries | $$$ |',
      '| Globex | $$ |',
      '| Acme | $ |',
      '| Initech | $ |',
    ].join('\n');
    t.same(positions(['Acme', 'Globex', 'Initech'], answer), [3, 2, 4]);
  },
);

t.test('an entry repeated as a link or in other case counts once', async (t) => {
  const answer = [
    '1. [Stark Industries](https://stark.example) - suite',
    '2. **Acme**',
    '',
    '| Brand | Price |',
    '| --- | --- |',
    '| stark industries | $$$ |',
    '| Hooli | $ |',
    '| Acme | $ |',
  ].join('\n');
  t.same(positions(['Acme', 'Hooli'], answer), [2, 3]);
});

t.test('a group named outside the lists comes after their entries, by first naming', async (t) => {
  const answer =
    'Hooli is also fine. Umbrella too.\n\n1. **Stark**\n2. **Acme**\n\nUmbrella, again.';
  t.same(positions(['Acme', 'Umbrella', 'Hooli', 'Globex'], answer), [2, 4, 3, null]);
});

t.test('an answer without such a list: the order of first naming among the groups', async (t) => {
  t.same(positions(['Acme', 'Globex'], 'Globex first, then Acme and Globex.'), [2, 1]);
  t.same(
    positions(['Acme', 'Globex'], '- Fit: pick what suits you\n- Value: Globex and Acme both work'),
    [2, 1],
    'list entries that name no group do not make a recommendation list',
  );
});

t.test("the sandbox's answers: its three brands at positions 1, 2, 3", async (t) => {
  for (const prompt of ['best CRM for a small team', '哪个云服务最好', 'project tools']) {
    const [b1, b2, b3] = brandsFor(prompt);
    const answer = sandboxAnswer(prompt, 'search').answerContent!;
    t.same(
      positions([b3!.name, b1!.name], answer),
      [3, 1],
      `${prompt}: the third and the first, whatever the user typed`,
    );
    t.same(positions([b2!.name], answer), [2]);
  }
});
