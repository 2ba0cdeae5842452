/**
 * The kit's control rules on small pages in real Chromium, for the widgets
 * no replica draws: a control named by aria-labelledby; a row holding two
 * interactive elements names neither (the row text is no name then); a tab
 * set and cleared by choosing the tab beside it; a listbox picker that shows
 * a model name, cleared by its first choice without an on-word; a switch
 * behind the second of two menus, looked for first where it was last found,
 * and at once in the other menu when it has moved there.
 */
import t from 'tap';
import type { Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { setControl, shownChoice, type Control } from '../../../crawler/web/controls.js';
import { setModeControls } from '../../../crawler/web/mode-controls.js';

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

const SEARCH: Control = { site: 'test', label: 'web-search', toggle: { names: ['联网搜索'] } };
const SWITCH =
  '<div><span>联网搜索</span><span role="switch" aria-label="联网搜索" aria-checked="false" tabindex="0">o</span></div>';

/**
 * Two menus beside the composer, each opened and closed by its button (its clicks counted in
 * `data-clicks`): 模型 with a plain item, 工具 with another and the 联网搜索 switch.
 */
async function twoMenus(): Promise<Page> {
  const page = await context.newPage();
  const menu = (name: string, item: string) =>
    `<span><button aria-haspopup="menu" aria-expanded="false" data-clicks="0">${name}</button>` +
    `<div role="menu" hidden>${item}</div></span>`;
  await page.setContent(`<main><div class="composer"><textarea></textarea>
${menu('模型', '<div role="menuitem">帮助</div>')}
${menu('工具', `<div role="menuitem">上传</div>${SWITCH}`)}
</div></main>
<script>
document.addEventListener('click', (e) => {
  const sw = e.target.closest('[role="switch"]');
  if (sw) sw.setAttribute('aria-checked', String(sw.getAttribute('aria-checked') !== 'true'));
  const opener = e.target.closest('[aria-haspopup]');
  if (!opener) return;
  opener.dataset.clicks = String(Number(opener.dataset.clicks) + 1);
  const menu = opener.nextElementSibling;
  menu.hidden = !menu.hidden;
  opener.setAttribute('aria-expanded', String(!menu.hidden));
});
</script>`);
  return page;
}

const clicks = async (page: Page) =>
  page.$$eval('[aria-haspopup]', (all) => all.map((b) => Number(b.getAttribute('data-clicks'))));
const expanded = async (page: Page) =>
  page.$$eval('[aria-haspopup]', (all) => all.map((b) => b.getAttribute('aria-expanded')));
const searchOn = async (page: Page) => page.getAttribute('[role="switch"]', 'aria-checked');

t.test('a switch behind the second menu: the next lookup opens that menu first', async (t) => {
  const page = await twoMenus();
  await setControl(page, SEARCH, true);
  t.same(await clicks(page), [2, 2], 'first lookup: 模型 opened and closed, then 工具');
  t.equal(await searchOn(page), 'true');
  await setControl(page, SEARCH, false);
  t.same(await clicks(page), [2, 4], 'next lookup: 工具 only');
  t.equal(await searchOn(page), 'false');
  t.same(await expanded(page), ['false', 'false'], 'both menus left closed');
  await page.close();
});

t.test('a remembered menu that no longer holds the switch: the others at once', async (t) => {
  const page = await twoMenus();
  let started = Date.now();
  await setControl(page, SEARCH, true);
  const fullScanMs = Date.now() - started;
  t.same(await clicks(page), [2, 2]);
  // The page's next build moves the switch into the first menu.
  await page
    .locator('[role="switch"]')
    .locator('xpath=..')
    .evaluate((row) => row.remove());
  await page
    .locator('[role="menu"]')
    .first()
    .evaluate((menu, row) => menu.insertAdjacentHTML('beforeend', row), SWITCH);
  started = Date.now();
  await setControl(page, SEARCH, true);
  const ms = Date.now() - started;
  // Four clicks against the first scan's four, and no wait on a deadline (CONTROL_MS).
  t.ok(ms < fullScanMs + 1_000, `found in ${ms} ms (the first scan: ${fullScanMs} ms)`);
  t.equal(await searchOn(page), 'true', 'set in the menu that holds it now');
  t.same(await clicks(page), [4, 4], '工具 (remembered) tried, then 模型');
  t.same(await expanded(page), ['false', 'false'], 'both menus left closed');
  await setControl(page, SEARCH, false);
  t.same(await clicks(page), [6, 4], 'the memory follows the switch: 模型 first');
  t.equal(await searchOn(page), 'false');
  await page.close();
});

t.test('the last control set is not read back again; its menu is closed', async (t) => {
  const page = await twoMenus();
  const left = await setModeControls(page, [[SEARCH, true]]);
  t.same([...left], [['web-search', true]]);
  t.equal(await searchOn(page), 'true');
  t.same(await clicks(page), [2, 2], '工具 opened once, closed once');
  t.same(await expanded(page), ['false', 'false'], 'both menus left closed');
  await page.close();
});
