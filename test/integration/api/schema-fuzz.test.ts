/**
 * The OpenAPI document against the running service: requests generated from
 * the document's own schemas, valid and broken in one place, sent to the real
 * app (one process, the MongoDB-wire server). No answer may be a 5xx, none may
 * carry a status the document does not list for the operation, a valid
 * request may not be refused as invalid, a broken one must be, and every
 * answer must match the schema the document gives for its status.
 */
import fc from 'fast-check';
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';
import { JsonSchemas, type Hints, type Schema } from '../../helpers/json-schema.js';

const RUNS_PER_OPERATION = 30;
const REFUSALS = [400, 413, 415];

const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,proxies,callbacks,monitors',
  MAX_UNFINISHED_SUBTASKS: '1000000',
});
const user = await svc.newUser();
// An operator, so the operator routes are fuzzed past their role check.
await svc.broker.call('users.setRole', { userId: user.userId, role: 'operator' });
const doc = (await svc.client.get('/api/business/openapi.json')).body;
const schemas = new JsonSchemas(doc.components.schemas);

// Rules that hang on live state are stated in the document's descriptions; the
// generator draws those values from the live service, as a client would.
const cities = (await svc.client.get('/api/business/eip-edge/ports/city-info')).body.data as {
  regionCode: string[];
  active: boolean;
}[];
const activeRegions = cities.filter((c) => c.active).flatMap((c) => c.regionCode);
const submitted = await svc.client.post(
  '/api/business/monitor/task/batch/shared',
  { prompts: ['seed'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
  user.token,
);
const known = {
  taskId: submitted.body.data.taskId as string,
  subTaskId: submitted.body.data.subTaskList[0].subTaskId as string,
};
// Whether a platform can take work is live state too (GET /platforms): a valid
// request names pairs that are not unavailable (this cluster runs no crawler
// node, so most are unknown and accepted; a real site's web channel has no account).
const catalogue = (await svc.client.get('/api/business/monitor/platforms', user.token)).body
  .data as {
  platform: string;
  channels: Record<string, string[]>;
  availability: Record<string, { available: boolean | null }>;
}[];
const takingWork = catalogue.flatMap((p) =>
  Object.entries(p.channels)
    .filter(([channel]) => p.availability[channel]?.available !== false)
    .flatMap(([channel, modes]) => modes.map((mode) => ({ platform: p.platform, channel, mode }))),
);
const listedZones = doc.components.schemas.MonitorInput.properties.schedule.anyOf[0].properties
  .timezone.enum as string[];
const hints: Hints = {
  platforms: fc.array(
    fc
      .record({
        pair: fc.constantFrom(...takingWork),
        screenshot: fc.constantFrom(0, 1, 2),
      })
      .map(({ pair, screenshot }) => ({ ...pair, screenshot })),
    { minLength: 1, maxLength: 4 },
  ),
  regionCode: activeRegions.length
    ? fc.oneof(
        fc.constant(null),
        fc.constantFrom(...activeRegions).map((c) => [c]),
      )
    : fc.constant(null),
  apiKey: fc.oneof(fc.constant(user.apiKey), fc.string({ minLength: 1 })),
  // A monitor's cron text is read by croner, as the description says; its time zone is any
  // the document lists (the service accepts each, and no other).
  schedule: fc.oneof(
    fc.record({
      cron: fc.constantFrom('0 9 * * *', '*/30 8-20 * * 1-5'),
      timezone: fc.constantFrom(...listedZones),
    }),
    fc.integer({ min: 1, max: 1440 }).map((everyMinutes) => ({ everyMinutes })),
  ),
  // A monitor's adaptive samples need min <= max, a rule across two fields.
  samples: fc.oneof(
    fc.integer({ min: 1, max: 20 }),
    fc
      .record({
        a: fc.integer({ min: 1, max: 20 }),
        b: fc.integer({ min: 1, max: 20 }),
        targetWidth: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      })
      .map(({ a, b, targetWidth }) => ({ min: Math.min(a, b), max: Math.max(a, b), targetWidth })),
  ),
};
/** URLs drop `.` and `..` segments, so those would name another path. */
const segment = () => fc.string({ minLength: 1 }).filter((v) => v !== '.' && v !== '..');
const pathHints: Hints = {
  taskId: fc.oneof(fc.constant(known.taskId), fc.uuid()),
  subTaskId: fc.oneof(fc.constant(known.subTaskId), segment()),
};

type Broken = 'none' | 'body' | 'query' | 'path' | 'token' | 'media';

interface Operation {
  method: string;
  path: string;
  spec: Schema;
}

// An event stream lasts as long as its task, so it has its own tests (test/integration/events/).
const streams = (spec: Schema) => Boolean(spec.responses?.['200']?.content?.['text/event-stream']);
const operations: Operation[] = Object.entries(doc.paths as Record<string, Schema>).flatMap(
  ([path, ops]) =>
    Object.entries(ops)
      .filter(([, spec]) => !streams(spec as Schema))
      .map(([method, spec]) => ({ method, path, spec })),
);

t.test('the document lists every route the service serves', async (t) => {
  t.ok(operations.length >= 16, `${operations.length} operations`);
});

/** The service's default MAX_BODY_BYTES. */
const MAX_BODY_BYTES = 1024 * 1024;

function bodyBytes(req: Request): number {
  const { body, rawBody } = req.options;
  if (rawBody !== undefined) return Buffer.byteLength(rawBody);
  return body === undefined ? 0 : Buffer.byteLength(JSON.stringify(body));
}

for (const op of operations) {
  t.test(`${op.method.toUpperCase()} ${op.path}`, async (t) => {
    await fc.assert(
      fc.asyncProperty(request(op), async (req) => {
        const res = await svc.client.request(req.method, req.url, req.options);
        const documented = op.spec.responses[String(res.status)] as Schema | undefined;
        const where = `${req.method} ${req.url} (${req.broken}) → ${res.status} ${res.text.slice(0, 300)}`;
        if (res.status >= 500) throw new Error(`5xx: ${where}`);
        if (!documented) throw new Error(`undocumented status: ${where}`);
        // Fifty prompts of the longest emoji text exceed the body limit: 413 comes first.
        if (bodyBytes(req) > MAX_BODY_BYTES) {
          if (res.status !== 413) throw new Error(`over the body limit, expected 413: ${where}`);
          return;
        }
        if (req.broken === 'none' && REFUSALS.includes(res.status)) {
          throw new Error(`valid per the document, refused: ${where}`);
        }
        const expected = { body: 400, query: 400, path: 400, token: 401, media: 415 } as const;
        if (req.broken !== 'none' && res.status !== expected[req.broken]) {
          throw new Error(`broken ${req.broken}, expected ${expected[req.broken]}: ${where}`);
        }
        const answer = documented.content?.['application/json']?.schema as Schema | undefined;
        const problem = answer && schemas.problem(answer, res.body);
        if (problem) throw new Error(`answer off its documented schema (${problem}): ${where}`);
      }),
      { numRuns: RUNS_PER_OPERATION, interruptAfterTimeLimit: 20_000 },
    );
    t.pass('no 5xx, no undocumented status, no valid request refused');
  });
}

interface Request {
  method: string;
  url: string;
  broken: Broken;
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };
}

function request(op: Operation): fc.Arbitrary<Request> {
  const params = (op.spec.parameters ?? []) as Schema[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.spec.requestBody?.content?.['application/json']?.schema as
    Schema | undefined;
  const protectedOp = Array.isArray(op.spec.security);

  const kinds: Broken[] = ['none', 'none', 'none'];
  if (bodySchema) kinds.push('body', 'media');
  if (queryParams.length) kinds.push('query');
  if (pathParams.some((p) => p.schema.format || p.schema.pattern)) kinds.push('path');
  if (protectedOp) kinds.push('token');

  return fc.constantFrom(...kinds).chain((broken) =>
    fc
      .record({
        path: fc.tuple(
          ...pathParams.map((p) =>
            broken === 'path' && (p.schema.format || p.schema.pattern)
              ? segment().filter((v) => !!schemas.problem(p.schema, v))
              : (pathHints[p.name] ?? schemas.valid(p.schema)),
          ),
        ),
        query: queryObject(queryParams, broken === 'query'),
        body: bodySchema
          ? broken === 'body'
            ? schemas.invalid(bodySchema, hints)
            : schemas.valid(bodySchema, hints)
          : fc.constant(undefined),
      })
      .map(({ path, query, body }) => {
        let url = op.path;
        pathParams.forEach((p, i) => {
          url = url.replace(`{${p.name}}`, encodeURIComponent(String(path[i])));
        });
        const search = new URLSearchParams(query).toString();
        const options: Request['options'] = {};
        if (protectedOp && broken !== 'token') options.token = user.token;
        if (bodySchema && broken === 'media') {
          options.rawBody = JSON.stringify(body);
          options.headers = { 'content-type': 'text/plain' };
        } else if (bodySchema) {
          options.body = body;
        }
        return {
          method: op.method.toUpperCase(),
          url: search ? `${url}?${search}` : url,
          broken,
          options,
        };
      }),
  );
}

/** Query values as text; a broken query breaks one parameter. */
function queryObject(params: Schema[], broken: boolean): fc.Arbitrary<Record<string, string>> {
  const valid = (required: boolean) =>
    Object.fromEntries(
      params
        .filter((p) => (p.required === true) === required)
        .map((p) => [p.name, schemas.valid(p.schema)]),
    );
  // A required parameter is always there; the optional ones come and go.
  const all = fc
    .tuple(fc.record(valid(true)), fc.record(valid(false), { requiredKeys: [] }))
    .map(([always, sometimes]) => ({ ...always, ...sometimes }));
  const text = (values: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  if (!broken) return all.map(text);
  return fc
    .tuple(
      all,
      fc.constantFrom(...params),
      fc.constantFrom('', 'x', '0', '-1', '1.5', '101', 'NaN', 'TRUE '),
    )
    .filter(([, p, v]) => !!schemas.problem(p.schema, asValue(p.schema, v)))
    .map(([values, p, v]) => ({ ...text(values), [p.name]: v }));
}

/** The value a query text stands for, as the document types it. */
function asValue(schema: Schema, text: string): unknown {
  if (schema.type === 'integer') return /^-?[0-9]+$/.test(text) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}
