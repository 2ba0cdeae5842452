/**
 * Screenshot mode 2 end to end, every role in one process with real Chromium:
 * the task's keywords travel with the lease, the mentions are highlighted in
 * the stored screenshot on both channels of the sandbox (the API answer page
 * and the sandbox-web page), and mode 2 without keywords is mode 1 and says so.
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { NOTE_NO_KEYWORDS } from '../../../crawler/mentions/shots.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { testBrowser } from '../../helpers/chromium.js';
import { pngPixels } from '../../helpers/png-pixels.js';

t.setTimeout(240_000);

const YELLOW: [number, number, number] = [0xff, 0xd4, 0x00];
const M = '/api/business/monitor';
const PROMPT = 'Which CRM should a small team pick?';
const [top] = brandsFor(PROMPT);

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  SANDBOX_TIMEOUT_MS: '20000',
  CRAWLER_CAPACITY: '4',
});
const user = await svc.newUser();
const browser = await testBrowser(t);

async function run(screenshot: 1 | 2, monitorKeywords?: string) {
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: [PROMPT],
      platforms: [
        { platform: 'sandbox', mode: 'search', screenshot },
        { platform: 'sandbox-web', mode: 'search', screenshot },
      ],
      ...(monitorKeywords !== undefined && { monitorKeywords }),
    },
    user.token,
  );
  t.equal(submitted.status, 200, 'submitted');
  const taskId = submitted.body.data.taskId as string;
  await untilTaskFinal(svc.client, user.token, taskId, 120_000, 200);
  const result = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  t.equal(result.body.data.status, 'completed', `task ${taskId} completed`);
  const subs = result.body.data.subTaskList as Record<string, any>[];
  return Object.fromEntries(subs.map((s) => [s.platform as string, s]));
}

async function yellowIn(url: string | null): Promise<number> {
  t.match(url, /\/screenshot\/[0-9a-f]{32}\.png$/);
  const res = await fetch(svc.client.baseUrl + new URL(url!).pathname, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  t.equal(res.status, 200);
  const px = await pngPixels(browser, Buffer.from(await res.arrayBuffer()));
  try {
    return await px.count({ x: 0, y: 0, width: px.width, height: px.height }, YELLOW);
  } finally {
    await px.close();
  }
}

t.test('mode 2 lights the mentions that mode 1 leaves plain, on both channels', async (t) => {
  const keywords = `${top!.name}|${top!.zh}`;
  const [one, two] = [await run(1, keywords), await run(2, keywords)];
  for (const platform of ['sandbox', 'sandbox-web']) {
    t.equal(two[platform]!.screenshotNote, null, `${platform}: no note, mentions were found`);
    t.equal(one[platform]!.mentionScreenshot, null, `${platform}: mode 1 has no clip`);
    const [plain, lit] = [
      await yellowIn(one[platform]!.pageScreenshot),
      await yellowIn(two[platform]!.pageScreenshot),
    ];
    t.ok(lit > plain + 300, `${platform}: ${lit} highlight pixels in mode 2, ${plain} in mode 1`);
    // The sandbox pages are taller than the browser window: a clip around the first mention.
    const clip = two[platform]!.mentionScreenshot as string | null;
    t.ok((await yellowIn(clip)) > 300, `${platform}: the clip shows a mention`);
  }
});

t.test('mode 2 without keywords: a plain screenshot, and the result says so', async (t) => {
  const subs = await run(2);
  for (const platform of ['sandbox', 'sandbox-web']) {
    const sub = subs[platform]!;
    t.equal(sub.screenshotNote, NOTE_NO_KEYWORDS, platform);
    t.equal(sub.mentionScreenshot, null);
    t.equal(await yellowIn(sub.pageScreenshot), 0, `${platform}: nothing is lit`);
  }
  const conn = await svc.db();
  const docs = await conn.collection('subtasks').find({ prompt: PROMPT }).toArray();
  t.ok(
    docs.every((d) => d.screenshot === 2 || !('keywords' in d)),
    'only mode-2 sub tasks store the keywords',
  );
});
