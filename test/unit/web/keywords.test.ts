import t from 'tap';
import { keywordPattern } from '../../../web/src/keywords.js';

const found = (keywords: string[], text: string) => text.match(keywordPattern(keywords)!) ?? [];

t.test('Latin keywords as whole words, case-insensitive; CJK as substrings', async (t) => {
  t.same(found(['Acme'], "ACME's rival Acmetronics, Acme公司 and acme."), ['ACME', 'Acme', 'acme']);
  t.same(found(['格罗贝克斯'], '格罗贝克斯在这一领域'), ['格罗贝克斯']);
  t.same(
    found(['Acme', 'Acme Inc.'], 'Acme Inc. and Acme'),
    ['Acme Inc.', 'Acme'],
    'longest first',
  );
  t.same(found(['a+b (x)'], 'use a+b (x) here'), ['a+b (x)'], 'regex syntax is text');
});

t.test('no keywords, no pattern', async (t) => {
  t.equal(keywordPattern([]), null);
  t.equal(keywordPattern(['  ']), null);
});
