/**
 * The OpenAPI document's examples against its own schemas, with ajv (JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1): every operation and webhook
 * shows examples (its request body, a success and an error answer), and each
 * example, parameter example and schema-level `examples` value validates.
 * The events stream's example is read frame by frame against the schema of
 * each event, and the webhook example's signature verifies.
 */
import t from 'tap';
import { buildOpenApi } from '../../../services/api/openapi.js';
import { ERROR_KINDS } from '../../../services/api/openapi-errors.js';
import { SECRET_EXAMPLE } from '../../../services/api/openapi-examples.js';
import { verifyWebhook } from '../../../services/shared/webhooks/sign.js';
import { AppError, describeError } from '../../../services/shared/errors.js';
import { DocumentSchemas, sseMessages } from '../../helpers/openapi-schemas.js';

type Json = Record<string, any>;

const doc = buildOpenApi('0.1.0', '/') as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const schemas = new DocumentSchemas(doc.components.schemas);
const problem = (schema: Json, value: unknown) => schemas.problem(schema, value);

interface Operation {
  where: string;
  op: Json;
  webhook: boolean;
}

const operations: Operation[] = [
  ...Object.entries(doc.paths as Json).map(([path, item]) => [path, item, false] as const),
  ...Object.entries(doc.webhooks as Json).map(([name, item]) => [name, item, true] as const),
].flatMap(([name, item, webhook]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    where: `${m.toUpperCase()} ${name}`,
    op: item[m] as Json,
    webhook,
  })),
);

/** The named values of a media type, parameter or header. */
function examplesOf(holder: Json): unknown[] {
  return [
    ...('example' in holder ? [holder.example] : []),
    ...Object.values((holder.examples ?? {}) as Json).map((e) => (e as Json).value),
  ];
}

/** A body no example can show: bytes of an image or a spreadsheet. */
const binary = (schema: Json) =>
  schema.format === 'binary' || String(schema.contentMediaType ?? '').startsWith('image/');

t.test('the document is OpenAPI 3.1 with webhooks', async (t) => {
  t.equal(doc.openapi, '3.1.0');
  t.ok(doc.webhooks.taskFinished.post, 'the completion callback');
  t.ok(operations.length >= 25, `${operations.length} operations`);
});

t.test('every operation shows examples and every example fits its schema', async (t) => {
  const failures: string[] = [];
  for (const { where, op, webhook } of operations) {
    const shown = { request: 0, success: 0, error: 0 };
    const check = (what: string, holder: Json, schema: Json | undefined) => {
      const values = examplesOf(holder);
      if (schema === undefined) return values.length;
      for (const [i, value] of values.entries()) {
        const p = problem(schema, value);
        if (p) failures.push(`${where} ${what} example ${i}: ${p}`);
      }
      return values.length;
    };
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
      const n = check(`request ${type}`, media, media.schema);
      if (n === 0) failures.push(`${where}: request ${type} has no example`);
      shown.request += n;
    }
    for (const [status, res] of Object.entries(op.responses as Json)) {
      for (const [type, media] of Object.entries((res.content ?? {}) as Json)) {
        const n = check(`${status} ${type}`, media, media.schema);
        if (n === 0 && !binary(media.schema))
          failures.push(`${where}: ${status} ${type} has no example`);
        // An image or a spreadsheet counts as shown: its bytes cannot be an example.
        const count = n || (binary(media.schema) ? 1 : 0);
        if (/^2/.test(status)) shown.success += count;
        else shown.error += count;
      }
      for (const [name, header] of Object.entries((res.headers ?? {}) as Json)) {
        check(`${status} header ${name}`, header, header.schema);
      }
    }
    for (const param of (op.parameters ?? []) as Json[]) {
      check(`parameter ${param.name}`, param, param.schema);
    }
    if (op.requestBody && shown.request === 0) failures.push(`${where}: no request example`);
    if (!webhook && shown.success === 0) failures.push(`${where}: no success example`);
    if (!webhook && shown.error === 0) failures.push(`${where}: no error example`);
  }
  t.same(failures, [], 'no operation without examples, no example off its schema');
});

t.test('schema-level examples fit the schema that carries them', async (t) => {
  const failures: string[] = [];
  const walk = (schema: unknown, at: string): void => {
    if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${at}/${i}`));
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Json;
    for (const [i, value] of ((s.examples ?? []) as unknown[]).entries()) {
      const p = problem(s, value);
      if (p) failures.push(`${at} examples/${i}: ${p}`);
    }
    for (const [key, child] of Object.entries(s)) {
      if (key !== 'examples') walk(child, `${at}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
    t.doesNotThrow(() => problem(schema, null), `${name} compiles`);
    walk(schema, name);
  }
  t.same(failures, []);
});

t.test('every error type is shown with its status', async (t) => {
  const shown = new Map<string, Set<string>>();
  for (const { op } of operations) {
    for (const [status, res] of Object.entries(op.responses as Json)) {
      const media = res.content?.['application/json'];
      for (const name of Object.keys((media?.examples ?? {}) as Json)) {
        if (!shown.has(name)) shown.set(name, new Set());
        shown.get(name)!.add(status);
      }
    }
  }
  const table = doc.components.schemas.ErrorEnvelope.description as string;
  for (const kind of ERROR_KINDS) {
    t.same([...(shown.get(kind.type) ?? [])], [kind.status], `${kind.type} under ${kind.status}`);
    t.match(table, `| ${kind.status} | \`${kind.type}\` |`, `${kind.type} in the table`);
    // A documented type must be one the error middleware passes on with that status.
    const seen = describeError(new AppError('x', Number(kind.status), kind.type));
    t.same([seen.status, seen.type], [Number(kind.status), kind.type]);
  }
});

t.test('the events stream: one schema branch per message; each example fits', async (t) => {
  const op = doc.paths['/api/business/monitor/task/{taskId}/events'].get;
  const media = op.responses['200'].content['text/event-stream'];
  const branches = media.schema.oneOf as Json[];
  t.same(
    branches.map((b) => b.properties.event?.const ?? 'heartbeat'),
    ['snapshot', 'subtask', 'done', 'heartbeat'],
  );
  for (const b of branches.slice(0, 3)) {
    t.match(b.properties.data, { contentMediaType: 'application/json' });
    t.ok(b.properties.data.contentSchema, 'the data has a schema');
  }
  t.same(Object.keys(media.examples), ['snapshot', 'subtask', 'heartbeat', 'done']);
  for (const [name, e] of Object.entries(media.examples as Json)) {
    t.equal(schemas.messageProblem(media.schema, e.value), undefined, `${name} fits`);
  }
  // The whole stream shown in the description is the service's own writing.
  const stream = /```\n([\s\S]*?)\n```/.exec(op.description as string)![1]!;
  const messages = sseMessages(stream);
  t.same(
    messages.map((m) => m.event ?? 'heartbeat'),
    ['snapshot', 'subtask', 'heartbeat', 'subtask', 'done'],
  );
  t.same(
    messages.filter((m) => m.id).map((m) => Number(m.id)),
    [1, 2, 3, 4],
    'ids increase',
  );
  for (const m of messages) t.equal(schemas.messageProblem(media.schema, m), undefined);
  const wrong = { ...messages[0], event: 'subtask' };
  t.match(schemas.messageProblem(media.schema, wrong), /data: /, 'a snapshot is no subtask');
});

t.test('the webhook example carries the real signature of its body', async (t) => {
  const post = doc.webhooks.taskFinished.post;
  const body = JSON.stringify(examplesOf(post.requestBody.content['application/json'])[0]);
  const headers = Object.fromEntries(
    (post.parameters as Json[]).map((p) => [p.name, p.example as string]),
  );
  const sentAt = Number(headers['webhook-timestamp']) * 1000;
  t.ok(verifyWebhook(SECRET_EXAMPLE, headers, body, sentAt), 'verifies with the example secret');
  t.notOk(verifyWebhook(SECRET_EXAMPLE, headers, `${body} `, sentAt), 'not for another body');
});
