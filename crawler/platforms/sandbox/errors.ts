/**
 * The checks the sandbox's web driver makes on what the chat page shows.
 * The page shows a refusal as the answer text, as consumer chat sites do, so
 * it is recognised by its wording. Pure.
 */
import { PlatformError } from '../types.js';
import { type Answer } from '../../../services/shared/contracts/answer.js';

/** Whether an answer text is a refusal rather than an answer. */
export function isRefusal(text: string): boolean {
  return /^\s*(?:I(?:'|’)m sorry[,.!]?\s*)?I(?: can(?:'|’)t| cannot| can not| won(?:'|’)t| am unable to|(?:'|’)m unable to) (?:help|assist)\b/i.test(
    text,
  );
}

/** Rejects answers that must not be recorded as answers (empty, refusal). */
export function checkAnswer(answer: Answer): Answer {
  const text = answer.answerContent.trim();
  if (text === '') {
    throw new PlatformError('the platform returned no answer (empty content)', 'failed', false);
  }
  if (isRefusal(text)) {
    throw new PlatformError(
      `the platform refused to answer: ${text.slice(0, 200)}`,
      'failed',
      false,
    );
  }
  return answer;
}
