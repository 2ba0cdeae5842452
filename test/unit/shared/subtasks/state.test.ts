import t from 'tap';
import {
  canMove,
  counterFor,
  decideRetry,
  finalTaskStatus,
  isFinalSubTask,
} from '../../../../services/shared/subtasks/state.js';
import {
  FINAL_SUBTASK_STATUSES,
  type Failure,
  SUBTASK_STATUSES,
  type SubTaskStatus,
} from '../../../../services/shared/contracts/status.js';

const NOW = 1_700_000_000_000;

t.test('canMove: every pair of sub task statuses', async (t) => {
  const allowed: Record<SubTaskStatus, SubTaskStatus[]> = {
    // pending → failed is the REGION_WAIT path (no node serves the region).
    pending: ['processing', 'failed'],
    // processing → pending is a retry round; the rest are final outcomes.
    processing: ['pending', 'completed', 'failed', 'timeout', 'error'],
    completed: [],
    failed: [],
    timeout: [],
    error: [],
  };
  let checked = 0;
  for (const from of SUBTASK_STATUSES) {
    for (const to of SUBTASK_STATUSES) {
      t.equal(canMove(from, to), allowed[from].includes(to), `${from} → ${to}`);
      checked++;
    }
  }
  t.equal(checked, 36);
});

t.test('canMove: named transitions', async (t) => {
  t.equal(canMove('pending', 'processing'), true);
  t.equal(canMove('processing', 'pending'), true, 'retry');
  t.equal(canMove('pending', 'failed'), true, 'REGION_WAIT');
  for (const final of FINAL_SUBTASK_STATUSES) {
    t.equal(canMove('processing', final), true, `processing → ${final}`);
    t.equal(canMove('pending', final), final === 'failed', `pending → ${final}`);
    for (const to of SUBTASK_STATUSES) t.equal(canMove(final, to), false, `${final} → ${to}`);
  }
  t.equal(canMove('pending', 'pending'), false);
  t.equal(canMove('processing', 'processing'), false);
});

t.test('isFinalSubTask', async (t) => {
  t.strictSame([...FINAL_SUBTASK_STATUSES], ['completed', 'failed', 'timeout', 'error']);
  t.equal(isFinalSubTask('pending'), false);
  t.equal(isFinalSubTask('processing'), false);
  t.equal(isFinalSubTask('completed'), true);
  t.equal(isFinalSubTask('failed'), true);
  t.equal(isFinalSubTask('timeout'), true);
  t.equal(isFinalSubTask('error'), true);
});

t.test('counterFor', async (t) => {
  t.equal(counterFor('completed'), 'completedItems');
  t.equal(counterFor('failed'), 'failedItems');
  t.equal(counterFor('timeout'), 'failedItems');
  t.equal(counterFor('error'), 'failedItems');
});

t.test('finalTaskStatus', async (t) => {
  t.equal(finalTaskStatus(3, 3, 0), 'completed', 'all completed');
  t.equal(finalTaskStatus(3, 0, 3), 'failed', 'all failed');
  t.equal(finalTaskStatus(3, 2, 1), 'partial_completed', 'mix');
  t.equal(finalTaskStatus(3, 1, 2), 'partial_completed', 'mix');
  t.equal(finalTaskStatus(1, 1, 0), 'completed');
  t.equal(finalTaskStatus(1, 0, 1), 'failed');
  t.equal(finalTaskStatus(3, 2, 0), undefined, 'one still open');
  t.equal(finalTaskStatus(3, 1, 1), undefined, 'one still open, mixed so far');
  t.equal(finalTaskStatus(3, 0, 2), undefined, 'one still open, failed so far');
  t.equal(finalTaskStatus(3, 0, 0), undefined, 'none final');
  t.equal(finalTaskStatus(2500, 2499, 0), undefined);
  t.equal(finalTaskStatus(2500, 2499, 1), 'partial_completed');
  // Edge: nothing to do counts as done, with nothing failed.
  t.equal(finalTaskStatus(0, 0, 0), 'completed', 'total 0');
});

t.test('decideRetry', async (t) => {
  const calls: number[] = [];
  const backoff = (attempt: number) => {
    calls.push(attempt);
    return 1000 * 2 ** (attempt - 1);
  };
  const retryable = (extra: Partial<Failure> = {}): Failure => ({
    status: 'failed',
    retryable: true,
    message: 'boom',
    ...extra,
  });

  t.test('non-retryable failures are final with their own status', async (t) => {
    for (const status of ['failed', 'timeout', 'error'] as const) {
      t.strictSame(decideRetry({ status, retryable: false, message: 'x' }, 1, 3, NOW, backoff), {
        kind: 'final',
        status,
      });
    }
    t.strictSame(
      decideRetry(
        { status: 'error', retryable: false, message: 'x', retryAfterSeconds: 30 },
        1,
        3,
        NOW,
        backoff,
      ),
      { kind: 'final', status: 'error' },
      'retryAfterSeconds does not make it retryable',
    );
  });

  t.test('retryable under maxAttempts → retry after the backoff', async (t) => {
    calls.length = 0;
    t.strictSame(decideRetry(retryable(), 1, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 1000,
    });
    t.strictSame(decideRetry(retryable(), 2, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 2000,
    });
    t.strictSame(calls, [1, 2], 'backoff is asked with the attempts made');
    t.strictSame(decideRetry(retryable({ status: 'timeout' }), 1, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 1000,
    });
  });

  t.test('retryAfterSeconds wins when longer than the backoff', async (t) => {
    t.strictSame(decideRetry(retryable({ retryAfterSeconds: 5 }), 1, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 5000,
    });
    t.strictSame(decideRetry(retryable({ retryAfterSeconds: 1 }), 2, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 2000,
    });
    t.strictSame(decideRetry(retryable({ retryAfterSeconds: 2 }), 2, 3, NOW, backoff), {
      kind: 'retry',
      notBefore: NOW + 2000,
    });
    t.strictSame(
      decideRetry(retryable({ retryAfterSeconds: 0 }), 1, 3, NOW, () => 0),
      {
        kind: 'retry',
        notBefore: NOW,
      },
    );
  });

  t.test('at or past maxAttempts → final', async (t) => {
    calls.length = 0;
    t.strictSame(decideRetry(retryable(), 3, 3, NOW, backoff), { kind: 'final', status: 'failed' });
    t.strictSame(decideRetry(retryable({ status: 'timeout' }), 3, 3, NOW, backoff), {
      kind: 'final',
      status: 'timeout',
    });
    t.strictSame(decideRetry(retryable(), 4, 3, NOW, backoff), { kind: 'final', status: 'failed' });
    t.strictSame(decideRetry(retryable(), 1, 1, NOW, backoff), { kind: 'final', status: 'failed' });
    t.strictSame(calls, [], 'no backoff computed for a final decision');
  });
});
