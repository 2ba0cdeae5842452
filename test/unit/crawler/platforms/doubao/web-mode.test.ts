/** Doubao's effective mode: the request body's switches first, the stream's evidence when it has none. */
import t from 'tap';
import { effectiveMode } from '../../../../../crawler/platforms/doubao/web/mode.js';

const none = { deepThink: false, sources: false };
const body2026 = (think: number, search: number) =>
  JSON.stringify({ option: { need_deep_think: think, need_web_search: search } });

t.test('2026 body: option.need_deep_think / need_web_search decide', async (t) => {
  t.equal(effectiveMode(body2026(0, 0), { deepThink: true, sources: true }), 'standard');
  t.equal(effectiveMode(body2026(1, 0), none), 'reasoning');
  t.equal(effectiveMode(body2026(0, 1), none), 'search');
  t.equal(effectiveMode(body2026(1, 1), none), 'reasoning_search');
});

t.test('samantha body: completion_option.use_deep_think / use_web_search', async (t) => {
  const body = (think: boolean, search: boolean) =>
    JSON.stringify({ completion_option: { use_deep_think: think, use_web_search: search } });
  t.equal(effectiveMode(body(true, false), none), 'reasoning');
  t.equal(effectiveMode(body(false, true), none), 'search');
});

t.test('no flag in the body: what the stream showed decides', async (t) => {
  t.equal(effectiveMode(undefined, none), 'standard');
  t.equal(effectiveMode('not json', { deepThink: true, sources: false }), 'reasoning');
  t.equal(effectiveMode('{"option":{}}', { deepThink: true, sources: true }), 'reasoning_search');
  t.equal(
    effectiveMode('{"option":{"need_deep_think":0}}', { deepThink: true, sources: true }),
    'search',
  );
});
