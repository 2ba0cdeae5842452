/**
 * The Doubao driver finds its mode controls the way a person does, in real
 * Chromium against replicas that draw them differently: deep thinking as a
 * 快速 / 专家 model picker and web search as a pressed 联网搜索 button; no
 * controls at all, where reasoning and search fail fast with the control's
 * name, nothing sent, the page's DOM in the evidence (standard mode without
 * controls: test/integration/web/site-contract.test.ts).
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { doubaoAsker } from '../../helpers/doubao-ask.js';
import { MODES } from '../../../services/shared/platforms.js';
import { hasReasoning, hasSearch } from '../../../crawler/platforms/common/answer.js';
import { toFailure } from '../../../crawler/executor.js';
import type { WebAnswer } from '../../../crawler/platforms/types.js';
import { startDoubaoReplica } from '../../../replicas/doubao/server.js';
import { expectedAnswer } from '../../../replicas/doubao/expected.js';

t.setTimeout(240_000);

const picker = await startDoubaoReplica({ latencyMs: 2, controls: 'picker' });
const bare = await startDoubaoReplica({ latencyMs: 2, controls: 'none' });
const browser = await testBrowser(t, picker, bare);

const onPicker = doubaoAsker(t, browser, picker);
const onBare = doubaoAsker(t, browser, bare);

const fieldsOf = ({
  effectiveMode: _m,
  formatVersion: _f,
  modelReported: _r,
  answerSource: _s,
  ...answer
}: WebAnswer) => answer;

t.test('the 快速 / 专家 picker and the 联网搜索 button: every mode, exact fields', async (t) => {
  const prompt = '上海适合带孩子去哪里玩';
  for (const mode of MODES) {
    const r = await onPicker.ask(prompt, mode);
    t.equal(r.error, undefined, `${mode}: no error`);
    t.same(fieldsOf(r.answer!), expectedAnswer(prompt, mode), `${mode}: fields`);
    t.equal(r.answer!.effectiveMode, mode, `${mode}: effective mode from the request body`);
    const label = hasReasoning(mode) ? '专家' : '快速';
    t.equal(r.answer!.modelReported, label, `${mode}: the picker's label as the model`);
    t.equal(await r.page.locator('[aria-haspopup="menu"]').innerText(), label);
    t.equal(
      await r.page.getByRole('button', { name: '联网搜索' }).getAttribute('aria-pressed'),
      String(hasSearch(mode)),
    );
    await r.context.close();
  }
});

t.test('a picker already on 专家 is set back to 快速 for a standard job', async (t) => {
  const r = await onPicker.ask('番茄炒蛋怎么做', 'standard', undefined, async (page) => {
    await page.click('[aria-haspopup="menu"]');
    await page.getByRole('menuitem', { name: /专家/ }).click();
    await page.getByRole('button', { name: '联网搜索' }).click();
  });
  t.same(fieldsOf(r.answer!), expectedAnswer('番茄炒蛋怎么做', 'standard'));
  t.equal(r.answer!.effectiveMode, 'standard');
  t.equal(r.answer!.modelReported, '快速', 'the label set back');
  await r.context.close();
});

t.test('no mode controls on the page: reasoning fails fast as named drift', async (t) => {
  for (const [mode, control] of [
    ['reasoning', 'deep-thinking'],
    ['search', 'web-search'],
  ] as const) {
    const sent = bare.calls.length;
    const r = await onBare.ask('番茄炒蛋怎么做', mode);
    t.equal(r.error?.message, `control_missing: doubao ${control}`, mode);
    t.ok(r.ms < 5_000, `${mode}: failed in ${r.ms} ms`);
    t.same(
      toFailure(r.error),
      { status: 'failed', retryable: false, message: `control_missing: doubao ${control}` },
      `${mode}: final, not retried on another account`,
    );
    t.equal(r.error?.account, undefined, `${mode}: the account stays healthy`);
    const note = r.ctx.evidence
      .list()
      .find((e) => e.kind === 'note' && e.text.startsWith('control_missing'));
    t.match(note, { text: /^control_missing: doubao .*the page's DOM: <!DOCTYPE html>/i });
    t.equal(bare.calls.length, sent, `${mode}: nothing was sent`);
    await r.context.close();
  }
});
