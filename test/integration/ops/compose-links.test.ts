/**
 * Links behind the compose entrance keep its port: a request through the
 * header rewrite of deploy/nginx.conf yields result and export links on the
 * address the client used (host and port), and every compose node that
 * builds links without a request (webhooks, account screenshots) is told the
 * entrance's public address.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { startEmbedded } from '../../helpers/cluster.js';
import { answerSubTasks, download } from '../../helpers/exports.js';
import { startEntrance } from '../../helpers/nginx-entrance.js';
import { ROOT as root } from '../../../infra/processes.js';

const conf = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8');
const M = '/api/business/monitor';

t.test('result and export links carry the port the client reached the entrance on', async (t) => {
  const svc = await startEmbedded(t);
  const entrance = await startEntrance(conf, Number(new URL(svc.client.baseUrl).port));
  t.teardown(() => entrance.close());
  const user = await svc.newUser('links');
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['which brand?'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  t.equal(submitted.status, 200, 'submitted', { body: submitted.text });
  const taskId = submitted.body.data.taskId as string;
  await answerSubTasks(await svc.db(), taskId, [], () => ({
    answerContent: 'an answer',
    referenceList: [],
    cited: [],
  }));

  const linkBase = `${entrance.url}/`;
  const result = await download(entrance.url, `${M}/task/result/${taskId}`, user.token);
  t.equal(result.status, 200);
  const [sub] = JSON.parse(result.body.toString('utf8')).data.subTaskList;
  t.ok(sub.pageScreenshot.startsWith(linkBase), `result: ${sub.pageScreenshot}`);

  const exported = await download(
    entrance.url,
    `${M}/task/${taskId}/export?format=ndjson`,
    user.token,
  );
  t.equal(exported.status, 200);
  const row = JSON.parse(exported.body.toString('utf8').trimEnd());
  t.ok(row.pageScreenshot.startsWith(linkBase), `export: ${row.pageScreenshot}`);
});

t.test('every compose node knows the public address of the nginx entrance', async (t) => {
  const compose = parse(readFileSync(join(root, 'deploy/compose.yaml'), 'utf8'), {
    merge: true,
  }) as { services: Record<string, { environment?: Record<string, string>; ports?: string[] }> };
  const published = compose.services.proxy!.ports![0]!.split(':')[0];
  const listen = /^\s*listen\s+(\d+)\s*;/m.exec(conf)?.[1];
  t.equal(published, listen, 'compose publishes the port nginx listens on');
  const nodes = Object.entries(compose.services).filter(([, s]) => s.environment?.SERVICES);
  t.ok(nodes.length > 0);
  for (const [name, service] of nodes) {
    const base = service.environment!.PUBLIC_BASE_URL;
    t.equal(base && new URL(base).port, published, `${name}: PUBLIC_BASE_URL ${base}`);
  }
});
