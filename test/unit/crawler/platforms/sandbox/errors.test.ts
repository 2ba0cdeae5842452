import t from 'tap';
import { checkAnswer, isRefusal } from '../../../../../crawler/platforms/sandbox/errors.js';
import { REFUSAL_TEXT, sandboxAnswer } from '../../../../../sandbox/answers.js';

t.test('refusals are recognised by their wording', async (t) => {
  t.ok(isRefusal(REFUSAL_TEXT), "the stand-in's own refusal");
  t.ok(isRefusal("I'm sorry, I cannot help with that request."));
  t.ok(isRefusal('I’m unable to assist with this.'));
  t.notOk(isRefusal('I can help with that: here is how.'));
  t.notOk(isRefusal(sandboxAnswer('x', 'standard').answerContent));
});

t.test('empty answers and refusals are rejected', async (t) => {
  const ok = sandboxAnswer('x', 'standard');
  t.equal(checkAnswer(ok), ok);
  t.throws(() => checkAnswer({ ...ok, answerContent: ' \n' }), {
    status: 'failed',
    retryable: false,
    message: /returned no answer/,
  });
  t.throws(() => checkAnswer({ ...ok, answerContent: REFUSAL_TEXT }), {
    status: 'failed',
    retryable: false,
    message: /refused/,
  });
});
