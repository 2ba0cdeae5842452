/**
 * The models the replica's picker offers and the ids its page sends in
 * `x-goog-ext-525001261-jspb` (`[1, null, null, null, "<id>"]`). The header
 * is the site's (HanaokaYuzu/Gemini-API `constants.py`); these ids and the
 * Fast / Thinking labels of the 2026 picker are **[inferred]**.
 */
export const MODEL_IDS = { fast: '71c2d248d3b102ff', thinking: 'e051ce1aa80aa576' } as const;

/** The picker's shown choice, by whether Thinking is the model. */
export const modelLabel = (thinking: boolean) => (thinking ? 'Thinking' : 'Fast');
