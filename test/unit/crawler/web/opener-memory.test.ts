/** The order a kept page's popup openers are tried in: the remembered one first, else page order. */
import t from 'tap';
import { rememberedFirst } from '../../../../crawler/web/opener-memory.js';

const near = [{ index: 3 }, { index: 5 }, { index: 9 }];
const order = (remembered: number | undefined) =>
  rememberedFirst(near, remembered).map((o) => o.index);

t.same(order(undefined), [3, 5, 9], 'nothing remembered: page order');
t.same(order(9), [9, 3, 5], 'the remembered opener first, the others in page order');
t.same(order(3), [3, 5, 9], 'remembered and already first');
t.same(order(4), [3, 5, 9], 'remembered but no longer near the composer: page order');
t.same(rememberedFirst([], 3), [], 'no openers');
t.not(rememberedFirst(near, undefined), near, 'a new list, never the one passed');
