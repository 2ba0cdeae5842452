/**
 * End to end over NATS, each role in its own process (api+tasks+users, the
 * scheduler, two crawler nodes with real Chromium): a mixed batch completes.
 */
import t from 'tap';
import { startCluster } from '../../helpers/cluster-processes.js';
import { noisyLines } from '../../helpers/log-lines.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Three times the two nodes' eight slots: both nodes take work and every slot is used again.
// Larger batches are bench:pipeline's.
const PROMPTS = 8;
const ITEMS = PROMPTS * 3;

t.test(
  `a ${PROMPTS} prompts × 3 platforms batch in mixed modes with screenshots completes`,
  async (t) => {
    const c = await startCluster(t, { crawlers: 2, crawlerCapacity: 4 });
    // Each role starts without a warning (the front node, the scheduler, the crawler nodes).
    for (const [id, node] of c.nodes)
      t.same(noisyLines(node.output()), [], `${id} started without a WARN or ERROR line`);
    const prompts = Array.from(
      { length: PROMPTS },
      (_, i) => `Which CRM should team ${i + 1} pick? 第${i + 1}题`,
    );
    const taskId = await c.submit({
      monitorKeywords: 'Acme',
      prompts,
      platforms: [
        { platform: 'sandbox', mode: 'search', screenshot: 1 },
        { platform: 'sandbox-web', mode: 'reasoning', screenshot: 1 },
        { platform: 'sandbox-cn', mode: 'reasoning_search', screenshot: 2 },
      ],
    });
    const result = await c.finished(taskId, 180_000);
    t.equal(result.status, 'completed');
    t.equal(result.totalItems, ITEMS);
    t.equal(result.completedItems, ITEMS);
    t.equal(result.failedItems, 0);

    const conn = await c.db();
    const docs = await conn.collection('subtasks').find({ taskId }).toArray();
    t.ok(
      docs.every((d) => d.attempts === 1),
      'every sub task ran exactly once',
    );
    const nodesUsed = new Set(docs.map((d) => d.lastNode));
    t.same([...nodesUsed].sort(), ['crawler-1', 'crawler-2'], 'both crawler nodes took work');

    for (const sub of result.subTaskList) {
      const label = `${sub.platform}/${sub.mode}/${sub.prompt}`;
      t.equal(sub.status, 'completed', label);
      t.ok(sub.answerContent && sub.answerContent.length > 50, `${label}: answer`);
      t.ok(Number.isInteger(sub.time), `${label}: time`);
      t.equal(sub.errorMessage, null);
      const search = sub.mode.includes('search');
      const reasoning = sub.mode.includes('reasoning');
      t.equal(sub.referenceList.length > 0, search, `${label}: references only in search modes`);
      t.equal(sub.citationList.length > 0, search, `${label}: citations only in search modes`);
      const urls = new Set(sub.referenceList.map((r) => r.url));
      t.ok(
        sub.citationList.every((r) => urls.has(r.url)),
        `${label}: citations are a subset`,
      );
      t.equal(
        sub.reasoningProcess !== null,
        reasoning,
        `${label}: reasoning only in reasoning modes`,
      );
      t.ok(sub.recommendedQuestions.length > 0, `${label}: follow-up questions`);
      t.ok(sub.pageScreenshot, `${label}: screenshot URL`);
    }
    // Each prompt reached the platform exactly once per platform.
    const requests = c.sandbox.stats.requests.filter(
      (r) => r.prompt && (r.channel === 'api' || r.channel === 'web'),
    );
    t.equal(requests.length, ITEMS, 'one platform request per sub task');

    for (const sub of result.subTaskList.slice(0, 6)) {
      const res = await fetch(sub.pageScreenshot!);
      t.equal(res.status, 200);
      t.equal(res.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await res.arrayBuffer());
      t.same(png.subarray(0, 8), PNG, 'a real PNG');
      t.ok(png.length > 5_000, 'with a rendered page in it');
    }
    const missing = await fetch(
      result.subTaskList[0]!.pageScreenshot!.replace(/[0-9a-f]{32}/, '0'.repeat(32)),
    );
    t.equal(missing.status, 404);
  },
);
