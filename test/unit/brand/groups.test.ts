import t from 'tap';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { parseKeywords } from '../../../services/shared/brand/keywords.js';

t.test('an entry is one group; | separates its aliases; the first names it', async (t) => {
  t.same(keywordGroups(parseKeywords('Acme|阿克米|ACME Inc.|acme.com, Beta')), [
    {
      keyword: 'Acme',
      aliases: ['Acme', '阿克米', 'ACME Inc.', 'acme.com'],
      domains: ['acme.com'],
    },
    { keyword: 'Beta', aliases: ['Beta'], domains: [] },
  ]);
});

t.test(
  'aliases are trimmed; blank and repeated ones are dropped; an empty entry is no group',
  async (t) => {
    t.same(keywordGroups([' | Acme | | ACME |ＡＣＭＥ| 阿克米 ', '|', ' | ']), [
      { keyword: 'Acme', aliases: ['Acme', '阿克米'], domains: [] },
    ]);
  },
);

t.test('domain aliases go into domains, lower-case, without www., and stay aliases', async (t) => {
  const [g] = keywordGroups(['Acme|WWW.Acme.COM|acme.cn.|阿克米.中国|ａｃｍｅ．ｊｐ']);
  t.same(g!.aliases, ['Acme', 'WWW.Acme.COM', 'acme.cn.', '阿克米.中国', 'ａｃｍｅ．ｊｐ']);
  t.same(g!.domains, ['acme.com', 'acme.cn', '阿克米.中国', 'acme.jp']);
});

t.test('what is not a domain', async (t) => {
  const notDomains = [
    'ACME Inc.',
    'v2.0',
    '3.14',
    '1.2.3.4',
    'https://acme.com',
    'acme.com/x',
    'a@b.com',
    'acme',
    '-acme.com',
    'acme..com',
    '.com',
  ];
  const [g] = keywordGroups([notDomains.join('|')]);
  t.same(g!.domains, []);
  t.equal(g!.aliases.length, notDomains.length, 'all stay aliases');
});
