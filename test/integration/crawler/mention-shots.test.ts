/**
 * Screenshot mode 2 in real Chromium: the mentions highlighted on the API
 * channel's rendered answer page and on a live page, the clip around the
 * first one, and mode 2 without keywords as mode 1.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright';
import { ANSWER_SELECTOR, renderAnswerPage } from '../../../crawler/answer-page.js';
import { VIEWPORT } from '../../../crawler/browser.js';
import { RenderServer } from '../../../crawler/render-server.js';
import {
  NOTE_NO_KEYWORDS,
  NOTE_NO_MENTION,
  takeShots,
  type ShotRequest,
} from '../../../crawler/mentions/shots.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { testBrowser } from '../../helpers/chromium.js';
import { pngPixels } from '../../helpers/png-pixels.js';

const YELLOW: [number, number, number] = [0xff, 0xd4, 0x00];

const render = new RenderServer();
await render.start();
const browser = await testBrowser(t, { close: () => render.stop() });

function answerOf(answerContent: string): Answer {
  return {
    answerContent,
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
    recommendedQuestions: [],
    mediaContent: [],
  };
}

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} compares project tools in general.`).join(
    '\n\n',
  );

/** Shots of the answer's rendered page, as apiAttempt takes them. */
async function answerShots(b: Browser, prompt: string, answer: Answer, req: ShotRequest) {
  const published = render.publish(renderAnswerPage({ platformLabel: 'Sandbox', prompt, answer }));
  const page: Page = await b.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(published.url);
    return await takeShots(page, { root: ANSWER_SELECTOR, ...req });
  } finally {
    await page.close();
    published.dispose();
  }
}

t.test('a short answer: the mentions are highlighted, no clip', async (t) => {
  const answer = answerOf(
    'The best pick is **Acme** for teams; 阿克米 is its Chinese name. Beta is fine too.',
  );
  const prompt = 'Is Acme good?';
  const two = await answerShots(browser, prompt, answer, {
    screenshot: 2,
    keywords: ['Acme|阿克米', 'Beta'],
  });
  const one = await answerShots(browser, prompt, answer, {
    screenshot: 1,
    keywords: ['Acme|阿克米'],
  });
  t.equal(two.note, undefined);
  t.equal(two.mentionPng, undefined, 'the page fits the viewport: no clip');
  t.ok(two.first && two.first.width > 10 && two.first.height > 5, 'the first mention has a box');
  const [px2, px1] = await Promise.all([pngPixels(browser, two.png), pngPixels(browser, one.png)]);
  t.teardown(() => Promise.all([px2.close(), px1.close()]));
  t.equal(px2.width, px1.width);
  t.equal(px2.height, px1.height, 'the same page, the same size');
  const at = two.first!;
  const area = at.width * at.height;
  const lit = await px2.count(at, YELLOW);
  t.ok(lit > area * 0.4, `mode 2: the mention is on yellow (${lit} of ${area} pixels)`);
  t.equal(await px1.count(at, YELLOW), 0, 'mode 1: the same place is not');
  // The prompt names Acme too, but it is not the answer: only the answer block is searched.
  const wholePage = { x: 0, y: 0, width: px2.width, height: px2.height };
  t.ok((await px2.count(wholePage, YELLOW)) > lit * 2, 'the other mentions are lit as well');
  const header = { x: 0, y: 0, width: px2.width, height: Math.floor(at.y) - 4 };
  t.equal(
    await px2.count(header, YELLOW),
    0,
    'nothing above the first mention (the prompt) is lit',
  );
});

t.test('a long answer: a clip of the viewport around the first mention', async (t) => {
  const answer = answerOf(`${filler(60)}\n\nThe tool to pick is Acme.\n\n${filler(20)}`);
  const shots = await answerShots(browser, 'Which tool?', answer, {
    screenshot: 2,
    keywords: ['Acme'],
  });
  t.ok(shots.mentionPng && shots.clip && shots.first);
  const { clip, first } = shots as Required<typeof shots>;
  const full = await pngPixels(browser, shots.png);
  const cut = await pngPixels(browser, shots.mentionPng!);
  t.teardown(() => Promise.all([full.close(), cut.close()]));
  t.ok(full.height > VIEWPORT.height * 2, `the page is long (${full.height} px)`);
  t.same([cut.width, cut.height], [VIEWPORT.width, VIEWPORT.height], 'the clip is viewport-sized');
  t.ok(first.y > VIEWPORT.height, 'the mention is below the first screen');
  t.ok(clip.y <= first.y && first.y + first.height <= clip.y + clip.height, 'the clip holds it');
  t.ok(Math.abs(clip.y + clip.height / 2 - (first.y + first.height / 2)) < 2, 'centred on it');
  const inClip = { ...first, x: first.x - clip.x, y: first.y - clip.y };
  t.ok((await cut.count(inClip, YELLOW)) > first.width * first.height * 0.4, 'lit in the clip');
  t.ok(
    (await full.count(first, YELLOW)) > first.width * first.height * 0.4,
    'lit in the full page',
  );
});

t.test('mode 2 without keywords, or without a mention: mode 1, and it says so', async (t) => {
  const answer = answerOf('The best pick is Acme for teams.');
  const one = await answerShots(browser, 'q', answer, { screenshot: 1 });
  const none = await answerShots(browser, 'q', answer, { screenshot: 2, keywords: [] });
  const absent = await answerShots(browser, 'q', answer, { screenshot: 2, keywords: ['Zeta'] });
  t.equal(none.note, NOTE_NO_KEYWORDS);
  t.equal(absent.note, NOTE_NO_MENTION);
  t.equal(one.note, undefined);
  for (const s of [none, absent]) {
    t.equal(s.mentionPng, undefined);
    t.ok(s.png.equals(one.png), 'the very same image as mode 1');
  }
});

t.test('a live page: highlighted in place, across inline elements, then cleared', async (t) => {
  const page = await browser.newPage({ viewport: VIEWPORT });
  t.teardown(() => page.close());
  await page.setContent(
    `<html><head><meta http-equiv="Content-Security-Policy" content="style-src 'self'"></head>
     <body style="margin:0;background:#fff;font:16px sans-serif">
     <div id="chat" style="height:600px;overflow:auto">
       <div style="height:1500px">earlier turns</div>
       <div class="turn">Try <b>Ac</b><i>me</i> or Acmetronics; <span>阿克米</span> ships fast.</div>
     </div><script>window.alsoAcme = 'Acme';</script></body></html>`,
  );
  const shots = await takeShots(page, { screenshot: 2, keywords: ['Acme|阿克米'] });
  t.equal(shots.note, undefined);
  t.equal(shots.mentionPng, undefined, 'the window does not scroll: the full page is the shot');
  const first = shots.first!;
  t.ok(first.y > 0 && first.y + first.height < VIEWPORT.height, 'the inner pane scrolled to it');
  const px = await pngPixels(browser, shots.png);
  t.teardown(() => px.close());
  t.ok((await px.count(first, YELLOW)) > first.width * first.height * 0.4, '"Ac<b>me" is lit');
  const lit = await page.evaluate(`[...CSS.highlights.keys()]`);
  t.same(lit, [], 'the highlight is taken off the page again');
  t.equal(await page.evaluate('document.adoptedStyleSheets.length'), 0, 'and its style');
  const plain = await takeShots(page, { screenshot: 1 });
  const px1 = await pngPixels(browser, plain.png);
  t.teardown(() => px1.close());
  t.equal(await px1.count(first, YELLOW), 0, 'a later mode-1 shot of the kept page is plain');
});
