/** A result as a crawler node reports it: a plain answer without references or a screenshot. */
import type { CompletedResult } from '../../services/shared/contracts/report.js';

export const plainResult: CompletedResult = {
  answerContent: 'an answer',
  referenceList: [],
  citationList: [],
  reasoningProcess: null,
  recommendedQuestions: [],
  mediaContent: [],
  pageScreenshot: null,
};
