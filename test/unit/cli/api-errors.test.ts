import t from 'tap';
import { apiError, exitCodeOfStatus } from '../../../bin/cli/api-errors.js';
import { EXIT, exitCodeOfTask } from '../../../bin/cli/exit-codes.js';

t.test('a 400 names every violated rule', async (t) => {
  const err = apiError(
    400,
    {
      success: false,
      code: 400,
      message:
        'invalid request: prompts: must contain at least one prompt; platforms[0].mode: must be one of standard, reasoning',
      data: null,
      errors: [
        { field: 'prompts', message: 'must contain at least one prompt' },
        { field: 'platforms[0].mode', message: 'must be one of standard, reasoning' },
      ],
      requestId: 'r-1',
    },
    'the submission',
  );
  t.equal(err.message, 'the service refused the submission (HTTP 400):', 'the rules once, below');
  t.same(err.details, [
    'prompts: must contain at least one prompt',
    'platforms[0].mode: must be one of standard, reasoning',
    'request id: r-1',
  ]);
  t.equal(err.code, EXIT.usage);
});

t.test('a body that is not the envelope still says something', async (t) => {
  const err = apiError(502, '<html>Bad Gateway</html>\n', 'GET /x');
  t.equal(err.message, 'the service refused GET /x (HTTP 502): <html>Bad Gateway</html>');
  t.same(err.details, []);
  t.equal(
    apiError(404, null, 'the export').message,
    'the service refused the export (HTTP 404): no message',
  );
});

t.test('a request id the message already names is not repeated', async (t) => {
  const err = apiError(
    503,
    { message: 'the database is unavailable (request id r-2)', requestId: 'r-2' },
    'the status request',
  );
  t.equal(
    err.message,
    'the service refused the status request (HTTP 503): the database is unavailable (request id r-2)',
  );
  t.same(err.details, []);
});

t.test('exit codes of statuses and of final task states', async (t) => {
  t.equal(exitCodeOfStatus(400), EXIT.usage);
  t.equal(exitCodeOfStatus(403), EXIT.usage);
  t.equal(exitCodeOfStatus(404), EXIT.usage);
  t.equal(exitCodeOfStatus(429), EXIT.usage);
  t.equal(exitCodeOfStatus(401), EXIT.unreachable);
  t.equal(exitCodeOfStatus(503), EXIT.unreachable);
  t.equal(exitCodeOfTask('completed'), 0);
  t.equal(exitCodeOfTask('partial_completed'), 2);
  t.equal(exitCodeOfTask('failed'), 3);
});
