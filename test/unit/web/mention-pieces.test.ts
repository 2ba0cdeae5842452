import t from 'tap';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { parseKeywords } from '../../../services/shared/brand/keywords.js';
import { mentionPieces } from '../../../web/src/mention-pieces.js';

const groups = keywordGroups(parseKeywords('Acme|acme.com|ACME Inc., Globex|格罗贝克斯'));
const marked = (text: string) =>
  mentionPieces(text, groups)
    .filter((p) => p.keyword)
    .map((p) => `${p.keyword}:${p.text}`);

t.test('every alias is marked for its group, as the service counts it', async (t) => {
  t.same(marked('格罗贝克斯在这一领域口碑最好，Globex 性价比更高'), [
    'Globex:格罗贝克斯',
    'Globex:Globex',
  ]);
  t.same(marked('ACME Inc. and acme.com'), ['Acme:ACME Inc.', 'Acme:acme.com'], 'longest first');
  t.same(marked('ＡＣＭＥ’s rival'), ['Acme:ＡＣＭＥ'], 'full-width folds like the service');
});

t.test('word boundaries and URLs follow the service', async (t) => {
  t.same(marked("Acme's rival Acmetronics, Acme公司 and 3Acme"), ['Acme:Acme', 'Acme:Acme']);
  t.same(marked('see https://acme.com/pricing for acme.com'), ['Acme:acme.com'], 'not in a URL');
});

t.test('the pieces put back together are the text', async (t) => {
  const text = 'Intro: Globex, then 格罗贝克斯 and Acme.';
  const pieces = mentionPieces(text, groups);
  t.equal(pieces.map((p) => p.text).join(''), text);
  t.same(mentionPieces('Globex', []), [{ text: 'Globex' }], 'no groups, no marks');
  t.same(mentionPieces('', groups), []);
});
