/**
 * The README's main job: on a running embedded service, take the demo user
 * (created on the first run, the same one on every later run) with a fresh
 * key, get a token, submit a sample batch, show its progress until it is final
 * (or the wait ends), and print where to read the results.
 */
import type { ServiceBroker } from 'moleculer';
import type { Config } from '../services/shared/config.js';
import type { Visibility } from '../services/shared/contracts/brand.js';
import { demoHint } from './demo-hint.js';

export const DEMO_USER_NAME = 'demo';

/**
 * The team's brand (Acme) and a competitor (Globex). The sandbox derives its
 * answer from the prompt (sandbox/answers.ts): the first two prompts name both
 * brands, Acme third behind Initech and Globex in the English one and first in
 * the Chinese one, and the English one's cited sources name them too, so the
 * first charts show mentions, ranks, citations and the competitor. The third
 * recommends Initech, Globex and Stark Industries and leaves Acme out, so the
 * insights (docs/insights.md) have a brand nobody watches (Initech) and the
 * sources cited where Globex is named and Acme is not.
 */
export const DEMO_SAMPLE = {
  monitorKeywords: 'Acme|阿克米, Globex|格罗贝克斯',
  prompts: [
    'What is the best CRM for a small team?',
    '小团队用什么CRM好？',
    'Which CRM should a startup pick?',
  ],
  platforms: [
    { platform: 'sandbox', mode: 'search', screenshot: 1 },
    { platform: 'sandbox-web', mode: 'reasoning_search', screenshot: 1 },
    { platform: 'sandbox-cn', mode: 'reasoning' },
  ],
};

/** How many of each insight the demo prints. */
const INSIGHTS_SHOWN = 3;

export interface DemoRun {
  userId: number;
  apiKey: string;
  taskId: string;
}

const WAIT_MS = 180_000;

/** `print`: where the demo's lines go (stdout; a test keeps them). */
export async function runDemo(
  broker: ServiceBroker,
  config: Config,
  print: (line: string) => void = console.log,
): Promise<DemoRun> {
  const api = broker.getLocalService('api');
  if (!api) throw new Error('the demo needs the api service in this process');
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${api.settings.port}`;

  const user = await demoUser(broker);
  const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
    userId: user.userId,
  });
  const token = await http<{ accessToken: string }>(
    base,
    'POST',
    '/api/business/auth/token',
    undefined,
    {
      apiKey: key.apiKey,
    },
  );
  const auth = token.accessToken;
  print(`demo user ${user.userId}, API key ${key.apiKey}`);

  const submitted = await http<{ taskId: string; totalTask: number; pollUrl: string }>(
    base,
    'POST',
    '/api/business/monitor/task/batch/shared',
    auth,
    DEMO_SAMPLE,
  );
  print(`submitted task ${submitted.taskId} with ${submitted.totalTask} sub tasks`);

  const deadline = Date.now() + WAIT_MS;
  let status: { status: string; message: string };
  do {
    status = await http(base, 'GET', submitted.pollUrl, auth);
    print(`  ${new Date().toISOString()}  ${status.status.padEnd(17)} ${status.message}`);
    if (['completed', 'partial_completed', 'failed'].includes(status.status)) break;
    await new Promise((r) => setTimeout(r, 2_000));
  } while (Date.now() < deadline);

  const result = await http<{
    subTaskList: {
      platform: string;
      mode: string;
      status: string;
      pageScreenshot: string | null;
      answerContent: string | null;
      citationList: unknown[];
    }[];
    visibility: Pick<Visibility, 'discovered' | 'opportunities'>;
  }>(base, 'GET', `/api/business/monitor/task/result/${submitted.taskId}`, auth);
  for (const sub of result.subTaskList) {
    const answer = (sub.answerContent ?? '').replace(/\s+/g, ' ').slice(0, 70);
    print(
      `  ${sub.platform.padEnd(12)} ${sub.mode.padEnd(17)} ${sub.status.padEnd(10)} ${sub.citationList.length} cited  ${answer}…`,
    );
    if (sub.pageScreenshot) print(`      screenshot: ${sub.pageScreenshot}`);
  }
  for (const line of insightLines(result.visibility)) print(line);

  print(
    demoHint({
      base,
      apiKey: key.apiKey,
      token: auth,
      tokenTtlSeconds: config.tokenTtlSeconds,
      pollUrl: submitted.pollUrl,
      taskId: submitted.taskId,
    }),
  );
  return { userId: user.userId, apiKey: key.apiKey, taskId: submitted.taskId };
}

/** The insights in a few lines: the brands nobody watches, and where the team is missing. */
export function insightLines(v: Pick<Visibility, 'discovered' | 'opportunities'>): string[] {
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  return [
    'Discovered competitors (recommended, not in your keywords):',
    ...v.discovered
      .slice(0, INSIGHTS_SHOWN)
      .map(
        (d) =>
          `  ${d.name}: ${d.answers} answers (${percent(d.share)}), mean position ${d.averagePosition.toFixed(1)}`,
      ),
    'Citation opportunities (cited where a competitor is named and your brand is not):',
    ...v.opportunities
      .slice(0, INSIGHTS_SHOWN)
      .map(
        (o) =>
          `  ${o.domain}: ${o.answers} answers without you, ${o.userAnswers} with you; ${o.pages[0]?.url ?? o.retrieved[0]?.url ?? ''}`,
      ),
  ];
}

/** The demo user of an earlier run, or a new one. */
async function demoUser(broker: ServiceBroker): Promise<{ userId: number }> {
  const users = await broker.call<{ userId: number; name: string }[]>('users.listUsers');
  return (
    users.find((u) => u.name === DEMO_USER_NAME) ??
    (await broker.call<{ userId: number }, object>('users.createUser', { name: DEMO_USER_NAME }))
  );
}

async function http<T>(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { success: boolean; message: string; data: T };
  if (!envelope.success) throw new Error(`${method} ${path}: ${res.status} ${envelope.message}`);
  return envelope.data;
}
