import { request } from 'node:http';
import t from 'tap';
import { errorEnvelopeSchema } from '../../../services/shared/contracts/http.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { captureApiWarnings } from '../../helpers/api-log.js';

interface Raw {
  status: number;
  allow: string | undefined;
  body: unknown;
}

/** fetch refuses TRACE and rewrites unknown methods, so these go through node:http. */
function send(baseUrl: string, method: string, path: string, token?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { method, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            allow: res.headers.allow,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const PATHS = [
  '/api/business/health',
  '/api/business/auth/token',
  '/api/business/monitor/task/list',
  '/api/business/monitor/task/status/00000000-0000-4000-8000-000000000000',
  '/api/business/monitor/screenshot/0123456789abcdef0123456789abcdef.png',
  '/api/business/eip-edge/ports/city-info',
  '/api/business/nothing-here',
  '/',
];

t.test('unknown methods are 501 and disallowed ones 405 with Allow, never logged', async (t) => {
  const svc = await startEmbedded(t);
  const logged = captureApiWarnings(t, svc);

  for (const path of PATHS) {
    for (const method of ['QUERY', 'PROPFIND', 'MKCOL', 'PURGE']) {
      const res = await send(svc.client.baseUrl, method, path);
      t.equal(res.status, 501, `${method} ${path}`);
      t.match(errorEnvelopeSchema.parse(res.body), {
        code: 501,
        message: new RegExp(`${method} is not implemented`),
      });
    }
  }

  const allowed: Record<string, string> = {
    '/api/business/health': 'HEAD, GET',
    '/api/business/auth/token': 'POST',
    '/api/business/monitor/task/list': 'HEAD, GET',
    '/api/business/monitor/callback': 'HEAD, GET, PUT',
    '/api/business/eip-edge/ports/city-info': 'HEAD, GET',
  };
  for (const [path, allow] of Object.entries(allowed)) {
    for (const method of ['TRACE', 'DELETE', 'PATCH']) {
      const res = await send(svc.client.baseUrl, method, path);
      t.equal(res.status, 405, `${method} ${path}`);
      t.equal(res.allow, allow, `${method} ${path}: Allow lists the path's methods`);
      t.match(errorEnvelopeSchema.parse(res.body), { code: 405, message: new RegExp(allow) });
    }
  }

  const unknownPath = await send(svc.client.baseUrl, 'TRACE', '/api/business/nothing-here');
  t.equal(unknownPath.status, 404, 'a known method on an unknown path is a 404');

  t.same(logged, [], 'nothing a client sent was logged');
});

t.test('every 405 carries Allow, with or without a token', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const cases: [string, string, string][] = [
    ['DELETE', '/api/business/monitor/task/list', 'HEAD, GET'],
    ['POST', '/api/business/monitor/task/status/00000000-0000-4000-8000-000000000000', 'HEAD, GET'],
    ['GET', '/api/business/monitor/task/batch/shared', 'POST'],
    ['PUT', '/api/business/monitor/callback/secret/rotate', 'POST'],
    ['POST', '/api/business/openapi.json', 'HEAD, GET'],
    ['GET', '/api/business/auth/token', 'POST'],
  ];
  for (const token of [undefined, u.token]) {
    for (const [method, path, allow] of cases) {
      const res = await send(svc.client.baseUrl, method, path, token);
      t.equal(res.status, 405, `${method} ${path}`);
      t.equal(res.allow, allow, `${method} ${path}`);
    }
  }
});
