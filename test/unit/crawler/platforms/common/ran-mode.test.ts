/** The effective mode from what the stream showed, and a silent fallback reported as such. */
import t from 'tap';
import {
  effectiveModeOf,
  fallbackOf,
  IgnoredFrames,
  notApplied,
} from '../../../../../crawler/platforms/common/ran-mode.js';

const notes = () => {
  const list: string[] = [];
  return { list, note: (text: string) => void list.push(text) };
};
const never = () => {
  throw new Error('the request is read only without a stream');
};

t.test('the stream decides: thinking frames and search results', async (t) => {
  const ev = notes();
  const report = { thinking: true, search: true, ignored: [] };
  t.equal(effectiveModeOf('reasoning_search', report, never, ev), 'reasoning_search');
  t.same(ev.list, []);
});

t.test('a silent fallback is the mode that ran, noted with what was missing', async (t) => {
  const ev = notes();
  const report = { thinking: false, search: true, ignored: ['event "toast"'] };
  t.equal(effectiveModeOf('reasoning_search', report, never, ev), 'search');
  t.same(ev.list, [
    'frames kept but not applied: event "toast"',
    'silent fallback: asked reasoning_search, the stream ran search (no thinking frames)',
  ]);
  t.equal(
    fallbackOf('search', 'standard'),
    'silent fallback: asked search, the stream ran standard (no search results)',
  );
  t.equal(fallbackOf('standard', 'reasoning'), undefined, 'more than asked is no fallback');
});

t.test('without a stream read to its end, the request is the witness', async (t) => {
  const ev = notes();
  t.equal(
    effectiveModeOf('reasoning', undefined, () => 'reasoning', ev),
    'reasoning',
  );
  t.same(ev.list, []);
});

t.test('a format that cannot show a dimension leaves it to the request', async (t) => {
  const ev = notes();
  const report = { thinking: undefined, search: false, ignored: [] };
  t.equal(
    effectiveModeOf('reasoning_search', report, () => 'reasoning_search', ev),
    'reasoning',
  );
  t.match(ev.list, [/no search results/]);
});

t.test('ignored frames: a few distinct descriptions and the count', async (t) => {
  const f = new IgnoredFrames();
  f.add('a');
  f.add('a');
  t.same(f.list(), ['a', '2 frames in all']);
  const g = new IgnoredFrames();
  g.add('b');
  t.same(g.list(), ['b']);
});

t.test('a control the kit set and the call or the stream did not carry is named', async (t) => {
  // The DeepSeek run: deep thinking still on from the last sub task, search asked.
  t.equal(
    notApplied({ thinking: false, search: true }, 'reasoning_search', 'reasoning_search'),
    'thinking',
  );
  // The call asked it, but the stream ran what the kit turned off (no readable body: the stream alone).
  t.equal(notApplied({ thinking: false, search: false }, undefined, 'search'), 'search');
  t.equal(notApplied({ thinking: true, search: true }, 'reasoning', 'reasoning'), 'search');
});

t.test(
  'what the kit set and the call asked, with the site running less, is a fallback',
  async (t) => {
    t.equal(notApplied({ thinking: true, search: true }, 'reasoning_search', 'search'), undefined);
    t.equal(notApplied({ thinking: true }, undefined, 'standard'), undefined);
    t.equal(notApplied({ thinking: false, search: true }, 'search', 'search'), undefined);
  },
);

t.test('a control the page does not have is not checked', async (t) => {
  t.equal(notApplied({}, 'reasoning_search', 'reasoning_search'), undefined);
  t.equal(notApplied({ thinking: false }, 'search', 'search'), undefined);
});
