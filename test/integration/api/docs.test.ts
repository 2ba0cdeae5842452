import t from 'tap';
import { openApiPath, PATHS } from '../../../services/shared/contracts/http-paths.js';
import { VALIDATION_EXAMPLE_REQUEST } from '../../../services/api/openapi-errors.js';
import { startEmbedded } from '../../helpers/cluster.js';

const svc = await startEmbedded(t);

t.test('OpenAPI 3.1 document generated from the validation schemas', async (t) => {
  const res = await svc.client.get('/api/business/openapi.json');
  t.equal(res.status, 200);
  const doc = res.body;
  t.equal(doc.openapi, '3.1.0');
  t.match(doc.info, { version: /^\d+\.\d+\.\d+/ });
  t.same(
    Object.keys(doc.paths).sort(),
    Object.values(PATHS)
      // Swagger UI's own files belong to the docs page, not to the API it documents.
      .filter((path) => path !== PATHS.DOCS_ASSET)
      .map(openApiPath)
      .sort(),
    'every path of the table, in OpenAPI form',
  );
  t.ok(doc.paths['/api/business/monitor/task/result/{taskId}/{subTaskId}'], 'as OpenAPI writes it');
  const submit = doc.paths['/api/business/monitor/task/batch/shared'].post;
  const body = submit.requestBody.content['application/json'].schema;
  t.equal(body.$ref, '#/components/schemas/BatchSubmission');
  const schema = doc.components.schemas.BatchSubmission;
  t.same(schema.required, ['prompts', 'platforms']);
  t.equal(schema.properties.prompts.maxItems, 50, 'limits come from the validating schema');
  t.equal(schema.properties.platforms.maxItems, 50);
  const variants = doc.components.schemas.PlatformConfig.anyOf as {
    properties: { platform: { enum: string[] }; channel: unknown; mode: { enum: string[] } };
    required: string[];
  }[];
  // The modes on the platform's active channel: the variant that does not require a channel.
  const modesOf = (name: string) =>
    variants.find(
      (v) => v.properties.platform.enum.includes(name) && !v.required.includes('channel'),
    )?.properties.mode.enum;
  t.same(modesOf('chatgpt'), ['standard', 'reasoning', 'search', 'reasoning_search']);
  t.same(modesOf('gpt'), modesOf('chatgpt'), 'aliases are listed with their platform');
  t.same(modesOf('deepseek'), ['standard', 'reasoning'], "DeepSeek's API has no search");
  const web = variants.find(
    (v) => v.properties.platform.enum.includes('deepseek') && v.required.includes('channel'),
  );
  t.same(web?.properties.channel, { type: 'string', const: 'web' }, 'its site is named by channel');
  t.same(web?.properties.mode.enum, ['standard', 'reasoning', 'search', 'reasoning_search']);
  t.notOk(
    variants.some((v) => v.properties.platform.enum.includes('claude') && v !== variants[0]),
    'claude has one channel only',
  );
  const prompt = schema.properties.prompts.items;
  t.same(prompt.allOf, [{ pattern: '^[^\\u0000]*$' }, { pattern: '\\S' }], 'no NUL, not blank');
  t.match(schema.properties.callbackUrl.anyOf[0], { format: 'uri', pattern: undefined });
  t.same(schema.properties.callbackUrl.anyOf[0].allOf[1], { pattern: '^https?:\\/\\/' });
  t.same(doc.components.schemas.TokenRequest, {
    type: 'object',
    properties: {
      apiKey: {
        type: 'string',
        minLength: 1,
        description: 'An API key an operator created (amk_…)',
      },
    },
    required: ['apiKey'],
  });
  t.same(Object.keys(doc.paths['/api/business/auth/token'].post.responses).sort(), [
    '200',
    '400',
    '401',
    '413',
    '415',
    '429',
    '500',
    '503',
  ]);
  t.ok(doc.components.schemas.SubTaskResult, 'response schemas are published');
  t.ok(doc.components.schemas.CallbackDelivery, 'callback delivery state is published');
  t.ok(doc.components.schemas.CallbackSettings);
  t.equal(
    doc.paths['/api/business/monitor/callback'].put.requestBody.content['application/json'].schema
      .$ref,
    '#/components/schemas/DefaultCallback',
  );
  t.same(submit.security, [{ bearerAuth: [] }]);
  const list = doc.paths['/api/business/monitor/task/list'].get;
  t.same(
    list.parameters.map((p: { name: string }) => p.name),
    ['page', 'size', 'status'],
  );
  t.match(list.parameters[0].schema, { type: 'integer', minimum: 1 });
  t.match(list.parameters[1].schema, { type: 'integer', minimum: 1, maximum: 100 });
  const cityInfo = doc.paths['/api/business/eip-edge/ports/city-info'].get;
  t.equal(cityInfo.security, undefined, 'the city lookup is public');
  t.same(
    cityInfo.parameters.map((p: { name: string }) => p.name),
    ['deduplicate'],
  );
  t.same(Object.keys(doc.components.schemas.ProxyPortRecord.properties), [
    'port',
    'province',
    'city',
    'regionCode',
    'outIp',
    'active',
  ]);
  t.notOk(JSON.stringify(doc).includes('#/$defs/'), 'every reference resolves inside components');
});

t.test("the 400 example is the service's own answer to its example request", async (t) => {
  const doc = (await svc.client.get('/api/business/openapi.json')).body;
  const submit = doc.paths[openApiPath(PATHS.TASK_SUBMIT)].post;
  const example = submit.responses['400'].content['application/json'].examples.VALIDATION_FAILED
    .value as { errors: { field: string }[] };
  const user = await svc.newUser('docs-400');
  const res = await svc.client.post(PATHS.TASK_SUBMIT, VALIDATION_EXAMPLE_REQUEST, user.token);
  t.equal(res.status, 400, res.text);
  t.same(res.body, example, 'the served answer, word for word');
  t.same(
    example.errors.map((e) => e.field),
    ['prompts', 'platforms[0].mode'],
    'fields named as the service names them',
  );
});

t.test('docs page is served and readable', async (t) => {
  const res = await svc.client.get('/api/business/docs');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/html/);
  t.match(res.text, /openapi\.json/);
  const etag = res.headers.get('etag');
  t.match(res.headers.get('cache-control'), 'no-cache');
  const again = await fetch(`${svc.client.baseUrl}/api/business/docs`, {
    headers: { 'if-none-match': etag! },
  });
  t.equal(again.status, 304, 'revalidated by ETag');
  const policy = res.headers.get('content-security-policy') ?? '';
  t.match(policy, "script-src 'self'", 'scripts from this origin only');
  t.notMatch(res.text, /<script>/, 'no inline script');
  for (const src of res.text.matchAll(/(?:src|href)="(\/api\/business\/docs\/assets\/[^"]+)"/g)) {
    t.equal((await svc.client.get(src[1]!)).status, 200, `${src[1]} is served`);
  }
});

t.test('the page files: an allow-list, typed, cached by ETag', async (t) => {
  const base = `${svc.client.baseUrl}/api/business/docs/assets`;
  const bundle = await fetch(`${base}/swagger-ui-bundle.js`);
  t.equal(bundle.status, 200);
  t.equal(bundle.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.equal(bundle.headers.get('content-encoding'), 'gzip', 'fetch accepts gzip');
  t.match(bundle.headers.get('cache-control'), /max-age=\d+/);
  t.match(await bundle.text(), /SwaggerUIBundle/);
  const etag = bundle.headers.get('etag');
  t.match(etag, /^"[\w-]+"$/);
  const again = await fetch(`${base}/swagger-ui-bundle.js`, {
    headers: { 'if-none-match': etag! },
  });
  t.equal(again.status, 304, 'revalidated by ETag');
  t.equal((await again.arrayBuffer()).byteLength, 0);
  const css = await fetch(`${base}/swagger-ui.css`, { headers: { 'accept-encoding': 'identity' } });
  t.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  t.equal(css.headers.get('content-encoding'), null);
  t.not(css.headers.get('etag'), etag);
  t.equal((await fetch(`${base}/favicon-32x32.png`)).headers.get('content-type'), 'image/png');
  const init = await fetch(`${base}/docs-init.js`);
  t.match(await init.text(), /validatorUrl: null/, 'no call to the online validator');
  for (const name of [
    'package.json',
    'index.html',
    'swagger-ui-bundle.js.map',
    '..%2Fpackage.json',
    'toString',
  ]) {
    const res = await svc.client.get(`/api/business/docs/assets/${name}`);
    t.equal(res.status, 404, `${name} is not served`);
    t.match(res.body, { success: false, code: 404 });
  }
});

t.test('health', async (t) => {
  const res = await svc.client.get('/api/business/health');
  t.match(res.body, { success: true, code: 200, data: { status: 'ok' } });
});
