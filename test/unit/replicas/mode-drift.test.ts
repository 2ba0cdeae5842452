/** The mode drifts as page text: one script, before the page's own, naming every mode drift composed. */
import t from 'tap';
import { driftPage } from '../../../replicas/common/drift.js';
import { MODE_DRIFTS } from '../../../replicas/common/mode-drift.js';

const PAGE =
  '<html><head><title>x</title></head><body><div class="mode-bar">' +
  '<button data-mode-control="thinking">深度思考</button></div><script>own()</script></body></html>';

t.test('one script for the composed mode drifts, run before the page’s own', async (t) => {
  const out = driftPage(PAGE, ['menu_controls', 'persisted_mode']);
  t.equal(out.match(/<script>/g)?.length, 2, 'the drift script and the page’s own');
  t.ok(out.indexOf('"menu_controls","persisted_mode"') < out.indexOf('own()'), 'first');
});

t.test('every mode drift draws its widgets and leaves the page text as it was', async (t) => {
  for (const d of MODE_DRIFTS) {
    const out = driftPage(PAGE, d);
    t.ok(out.includes(`["${d}"]`), d);
    t.equal(out.replace(/<script>\(function\(\)\{[\s\S]*?\}\)\(\);<\/script>/, ''), PAGE, d);
  }
});

t.test('other drifts add no mode script; hashed class names apply to the whole page', async (t) => {
  t.equal(driftPage(PAGE, 'no_testids'), PAGE);
  const both = driftPage(PAGE, ['renamed_classes', 'nameless_controls']);
  t.notOk(both.includes('mode-bar'), 'the class hashed');
  t.ok(both.includes('["nameless_controls"]'));
});
