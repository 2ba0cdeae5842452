import t from 'tap';
import { parseKeywords } from '../../../services/shared/brand/keywords.js';

t.test('empty and blank input give no keywords', async (t) => {
  t.same(parseKeywords(''), []);
  t.same(parseKeywords('   '), []);
  t.same(parseKeywords(',，、;；\n\r\n'), []);
});

t.test('a single keyword is trimmed', async (t) => {
  t.same(parseKeywords('  Acme  '), ['Acme']);
  t.same(parseKeywords('\tAcme CRM\t'), ['Acme CRM'], 'inner spaces kept, tabs trimmed');
});

t.test('every separator splits', async (t) => {
  t.same(parseKeywords('a,b'), ['a', 'b'], 'ASCII comma');
  t.same(parseKeywords('a，b'), ['a', 'b'], 'full-width comma');
  t.same(parseKeywords('a、b'), ['a', 'b'], 'ideographic enumeration comma');
  t.same(parseKeywords('a;b'), ['a', 'b'], 'ASCII semicolon');
  t.same(parseKeywords('a；b'), ['a', 'b'], 'full-width semicolon');
  t.same(parseKeywords('a\nb'), ['a', 'b'], 'LF');
  t.same(parseKeywords('a\r\nb'), ['a', 'b'], 'CRLF');
  t.same(parseKeywords('a\rb'), ['a', 'b'], 'CR');
  t.same(parseKeywords('a,，、;；\n\nb'), ['a', 'b'], 'runs of separators');
  t.same(parseKeywords('big data|ai/ml'), ['big data|ai/ml'], 'spaces, | and / do not split');
});

t.test('mixed separators with padding', async (t) => {
  t.same(parseKeywords(' Acme , 阿克米、 Beta；gamma ;\n Delta\r\n,'), [
    'Acme',
    '阿克米',
    'Beta',
    'gamma',
    'Delta',
  ]);
});

t.test('duplicates collapse case-insensitively, first spelling kept', async (t) => {
  t.same(parseKeywords('Acme，阿克米、acme'), ['Acme', '阿克米']);
  t.same(parseKeywords('acme, ACME, Acme, aCmE'), ['acme']);
  t.same(parseKeywords('Beta, alpha, BETA, Alpha, gamma'), ['Beta', 'alpha', 'gamma']);
  t.same(parseKeywords(' x , x ,x'), ['x'], 'duplicates after trimming');
});
