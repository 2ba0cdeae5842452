import t from 'tap';
import { DashScopeAccumulator } from '../../../../../crawler/platforms/qwen/stream.js';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { eventsAtEveryCut } from '../../../../helpers/sse-cuts.js';

const ev = (n: number, data: object, name = 'result') =>
  `id:${n}\nevent:${name}\n:HTTP_STATUS/200\ndata:${JSON.stringify(data)}\n\n`;
const out = (message: object, finish = 'null', extra = {}) => ({
  output: { choices: [{ message, finish_reason: finish }], ...extra },
});
const INFO = {
  search_info: {
    search_results: [
      {
        index: 1,
        title: '甲',
        url: 'https://a.example/',
        site_name: '甲站',
        icon: 'https://a.example/i.png',
      },
      { index: 2, title: '乙', url: 'https://b.example/', site_name: '乙站', icon: '' },
    ],
  },
};
// Recorded shape (platforms.md §9.2): search info first, incremental text, no [DONE].
const STREAM = [
  ev(1, out({ content: '' }, 'null', INFO)),
  ev(2, out({ reasoning_content: '先查资料。' })),
  ev(3, out({ content: '乙更好[2]。' })),
  ev(4, out({ content: '' }, 'stop', INFO)),
].join('');

t.test('native frames: sources first, incremental text, [n] citations', async (t) => {
  for (const events of eventsAtEveryCut(STREAM)) {
    const acc = new DashScopeAccumulator();
    for (const e of events) acc.push(e.event, JSON.parse(e.data));
    t.equal(acc.finishReason, 'stop');
    const a = buildAnswer(acc.raw);
    if (a.answerContent !== '乙更好[2]。') t.fail(a.answerContent);
    t.same(a.referenceList[0], {
      index: 1,
      title: '甲',
      url: 'https://a.example/',
      site: '甲站',
      icon: 'https://a.example/i.png',
    });
    t.same(
      a.citationList.map((r) => r.index),
      [2],
    );
    t.equal(a.reasoningProcess?.content, '先查资料。');
    t.equal(a.modelReported, undefined, 'the native protocol names no model');
  }
});

t.test('an error event is recorded with its code', async (t) => {
  const acc = new DashScopeAccumulator();
  acc.push('error', { code: 'Throttling.RateQuota', message: 'Requests throttling triggered.' });
  t.match(acc.error, { status: 0, code: 'Throttling.RateQuota' });
});
