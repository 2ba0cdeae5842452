/** The answer fields a driver extracts (spec 2.3), as stored and served. */

export interface Reference {
  index: number;
  title: string;
  url: string;
  site: string;
  icon: string;
}

export interface Media {
  type: 'image' | 'video' | 'audio' | 'card';
  url: string;
  title?: string;
  thumbnail?: string;
  sourceUrl?: string;
}

/** What a driver extracts: the spec 2.3 answer fields. */
export interface Answer {
  answerContent: string;
  referenceList: Reference[];
  /** The cited subset of referenceList (the same objects' values). */
  citationList: Reference[];
  reasoningProcess: { summary: string; content: string } | null;
  recommendedQuestions: string[];
  mediaContent: Media[];
  /**
   * The model the platform reported (API: the response's `model`; web: the
   * model the site's stream names, else the page's model label); absent: none.
   */
  modelReported?: string;
}
