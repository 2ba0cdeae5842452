import t from 'tap';
import { jaccard, stability, wordSet } from '../../../services/monitors/figures/stability.js';

t.test('words: ICU word boundaries, lower-cased, NFKC, no punctuation', async (t) => {
  t.strictSame([...wordSet('Try Ａpple, then apple!')], ['try', 'apple', 'then']);
  t.strictSame([...wordSet('推荐手机品牌')], ['推荐', '手机', '品牌']);
});

t.test('Jaccard of word sets', async (t) => {
  t.equal(jaccard(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
  t.equal(jaccard(new Set(), new Set()), 1);
  t.equal(jaccard(new Set(['a']), new Set()), 0);
});

t.test('stability: the mean over all pairs', async (t) => {
  t.equal(stability(['Use Acme.', 'use acme']), 1, 'the same words');
  t.equal(stability(['alpha beta', 'gamma delta']), 0);
  // Pairs: (1,2) 1/3, (1,3) 1, (2,3) 1/3.
  t.equal(stability(['a b', 'b c', 'a b']), (1 / 3 + 1 + 1 / 3) / 3);
  t.equal(stability(['one answer']), null, 'one sample has no pair');
});
