/**
 * Reflow must never change meaning: no page of the documentation (README,
 * CHANGELOG and the other top-level pages, docs/) has a sentence cut into a
 * list or a heading by a line that starts with a number and a dot, a dash or
 * a hash. The detector itself is checked on the damage once found in
 * docs/cli.md and on what it must let be.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { reflowDamage } from '../../helpers/reflow-damage.js';
import { ROOT } from '../../../infra/processes.js';

t.test('the damage once in docs/cli.md is found, with and without the blank line', async (t) => {
  const cut = [
    'monitor rules, so what the service fills in (a prompt without tags, the default channel, samples',
    '',
    '1. is no difference. It prints a line per monitor',
    '   before → after, `= unchanged`) and the totals',
  ].join('\n');
  t.same(reflowDamage(cut), [
    {
      line: 3,
      before:
        'monitor rules, so what the service fills in (a prompt without tags, the default channel, samples',
      text: '1. is no difference. It prints a line per monitor',
    },
  ]);
  t.same(
    reflowDamage('a range from\n- 5 to 10 minutes').map((d) => d.line),
    [2],
  );
  t.same(
    reflowDamage('see issue\n# 30 for why').map((d) => d.line),
    [2],
  );
  t.same(
    reflowDamage('the sub tasks, counted by platform,\n\n2) then by prompt').map((d) => d.line),
    [3],
  );
});

t.test('lists and headings that belong where they are pass', async (t) => {
  const fine = [
    '# Title',
    '',
    'The steps:',
    '1. start',
    '2. stop, then',
    '   wait',
    '',
    '   more of the second item',
    '3. go',
    '',
    'A paragraph that ends.',
    '',
    '- an item',
    '',
    '## Next',
    '',
    'Text with `code`',
    '',
    '- a list after code',
    '',
    '| a | b |',
    '',
    '1. after a table',
    '',
    '```sh',
    'echo one',
    '1. not prose',
    '```',
    '- after a block',
  ].join('\n');
  t.same(reflowDamage(fine), []);
});

t.test('no page of the documentation has a sentence cut by reflow', async (t) => {
  const pages = [
    ...readdirSync(ROOT).filter((f) => f.endsWith('.md')),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  t.ok(pages.includes('docs/cli.md') && pages.includes('README.md'), `${pages.length} pages`);
  for (const page of pages) {
    const damage = reflowDamage(readFileSync(join(ROOT, page), 'utf8'));
    t.same(
      damage.map((d) => `${page}:${d.line}: "${d.before}" / "${d.text}"`),
      [],
      page,
    );
  }
});
