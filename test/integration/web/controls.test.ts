/**
 * The kit's control rules on small pages in real Chromium, for the widgets
 * no replica draws: a control named by aria-labelledby; a row holding two
 * interactive elements names neither (the row text is no name then); a tab
 * set and cleared by choosing the tab beside it; a listbox picker that shows
 * a model name, cleared by its first choice without an on-word.
 */
import t from 'tap';
import type { Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { setControl, shownChoice, type Control } from '../../../crawler/web/controls.js';

const browser = await testBrowser(t);
const context = await browser.newContext();
t.teardown(() => context.close());

const THINKING: Control = {
  site: 'test',
  label: 'deep-thinking',
  toggle: { names: ['深度思考'] },
  picker: { on: ['思考'] },
};

/** A page with a composer and `controls` beside it; clicks flip aria-checked / aria-selected as a site's script would. */
async function pageWith(controls: string): Promise<Page> {
  const page = await context.newPage();
  await page.setContent(`<main><div class="composer"><textarea></textarea>${controls}</div></main>
<script>
document.addEventListener('click', (e) => {
  const sw = e.target.closest('[role="switch"]');
  if (sw) sw.setAttribute('aria-checked', String(sw.getAttribute('aria-checked') !== 'true'));
  const tab = e.target.closest('[role="tab"]');
  if (tab) for (const t of tab.parentElement.children) t.setAttribute('aria-selected', String(t === tab));
  const opener = e.target.closest('[aria-haspopup]');
  const list = document.querySelector('[role="listbox"]');
  if (opener) { list.hidden = !list.hidden; opener.setAttribute('aria-expanded', String(!list.hidden)); }
  const option = e.target.closest('[role="option"]');
  if (option) { document.querySelector('[aria-haspopup]').textContent = option.textContent; list.hidden = true;
    document.querySelector('[aria-haspopup]').setAttribute('aria-expanded', 'false'); }
});
</script>`);
  return page;
}

t.test('a switch named by aria-labelledby', async (t) => {
  const page = await pageWith(
    '<span id="l">深度思考</span><span role="switch" aria-checked="false" aria-labelledby="l" tabindex="0">o</span>',
  );
  await setControl(page, THINKING, true);
  t.equal(await page.getAttribute('[role="switch"]', 'aria-checked'), 'true');
  await page.close();
});

t.test('a row with two interactive elements names neither', async (t) => {
  const page = await pageWith(
    '<div><span role="switch" aria-checked="false" tabindex="0"></span><a href="#x">帮助</a> 深度思考</div>',
  );
  await t.rejects(setControl(page, THINKING, true), {
    message: 'control_missing: test deep-thinking',
  });
  t.equal(await setControl(page, THINKING, false), undefined, 'off: nothing to do');
  await page.close();
});

t.test(
  'a tab: set by choosing it, cleared by choosing the first tab without the name',
  async (t) => {
    const page = await pageWith(
      '<div role="tablist"><span role="tab" aria-selected="true" tabindex="0">快速</span><span role="tab" aria-selected="false" tabindex="0">深度思考</span></div>',
    );
    await setControl(page, THINKING, true);
    t.equal(await page.getAttribute('[role="tab"]:nth-child(2)', 'aria-selected'), 'true');
    await setControl(page, THINKING, false);
    t.equal(await page.getAttribute('[role="tab"]:nth-child(1)', 'aria-selected'), 'true');
    await page.close();
  },
);

t.test('a listbox picker showing a model name, both ways', async (t) => {
  const page = await pageWith(
    '<button aria-haspopup="listbox" aria-expanded="false">Kimi</button>' +
      '<div role="listbox" hidden><div role="option">Kimi</div><div role="option">长思考 (k1.5)</div></div>',
  );
  await setControl(page, THINKING, true);
  t.equal(await shownChoice(page, THINKING), '长思考 (k1.5)');
  await setControl(page, THINKING, false);
  t.equal(await shownChoice(page, THINKING), 'Kimi');
  t.equal(await page.getAttribute('[aria-haspopup]', 'aria-expanded'), 'false', 'left closed');
  await page.close();
});
