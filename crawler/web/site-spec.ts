/**
 * What a consumer site tells the site-driver kit (site-driver.ts) about
 * itself. A site's folder, crawler/platforms/<site>/web/, holds:
 * - index.ts: `export const <site>Web = siteDriver(spec)` (the registry's one line);
 * - page.ts: the spec's page part (words, controls, answer and sources);
 * - mode.ts: the effective mode of what ran;
 * - the frame parser files and a FrameReader adapter (driver.ts).
 *
 * The kit drives every site the same way (site-driver.ts); a site supplies
 * only facts: where it lives, its chat call, its controls by role and name,
 * its words for walls, its frame parser and how its page shows an answer.
 * This interface is the kit's contract with every site; keep it stable.
 */
import type { Page } from 'playwright';
import type { Mode } from '../../services/shared/platforms.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import type { RawAnswer } from '../platforms/common/raw-answer.js';
import type { StreamReport } from '../platforms/common/ran-mode.js';
import type {
  CapturedStream,
  Evidence,
  Job,
  PlatformError,
  PlatformSettings,
} from '../platforms/types.js';
import type { Control } from './controls.js';
import type { PageWords } from './recognise.js';

/**
 * A site's frame parser as the kit reads the chat call with it: bytes in as
 * they arrive (the reader records each frame in the evidence itself), the
 * end marker, and what the frames said. A site signal or format drift before
 * the end marker throws its PlatformError; after it, the kit only notes it.
 */
export interface FrameReader {
  push(chunk: Buffer): void;
  /** The stream closed. */
  end(): void;
  /** The stream's own end marker was seen. */
  readonly complete: boolean;
  /** The format that recognised the frames (`deepseek-2026`); undefined before the first. */
  readonly formatVersion: string | undefined;
  /** What the frames said so far: raw fields, or an answer the parser built itself. */
  read(): RawAnswer | Answer;
  /**
   * What the frames showed of the mode that ran (thinking, search) and the
   * frames kept but not applied; absent: the parser cannot tell, and
   * `effectiveMode` decides alone.
   */
  report?(): StreamReport;
}

/** A control found by its accessible name (any role a button can have), then by selectors. */
export interface Named {
  names: readonly string[];
  fallbacks?: readonly string[];
}

export interface SiteSpec<R extends FrameReader = FrameReader> {
  /** The site's name in signals and messages: `deepseek`. */
  site: string;
  /** Where pages open, relative to the configured webUrl. */
  urls: { start: string; login: string };
  /**
   * The real site's hosts: `host` recognises the production address; `origins`
   * are every other origin its pages need (syntax: crawler/origin-allow.ts).
   * A replica or any other address serves everything from its own origin.
   */
  real: { host: RegExp; origins: readonly string[] };
  /** The page's own chat call: the one place its URL is named (the bench takes it from here). */
  call: {
    url: RegExp;
    /** Whether the response is the answer's stream; default: a 2xx status. */
    streams?(s: CapturedStream): boolean;
    /** What a response that is not the stream means; default: 401/403 a login wall, 429 a rate limit. */
    failure?(status: number, body: string): PlatformError;
    /** How long the page may take to make its call after send (its own signatures, proof-of-work). */
    waitMs?: number;
  };
  /** Words and paths of the site's walls (recognise.ts adds the common ones). */
  walls: PageWords;
  /** The mode controls, found by role and name; absent: the site has no such control. */
  controls: {
    thinking?: Control;
    search?: Control;
    /** Sends the prompt; absent or not found: Enter in the composer sends it. */
    send?: Named;
    /** Starts a new chat without a reload (a kept page's next sub task); absent: a reload does. */
    newChat?: Named;
    /**
     * Further controls a job sets, each with its wanted state, before the
     * mode's (a model picker that resets the mode's controls when it
     * changes); the operator's settings choose, e.g. the model inside the site.
     */
    before?(job: Job, settings: PlatformSettings): readonly (readonly [Control, boolean])[];
    /**
     * The picker whose shown choice is the page's label for the model
     * (`modelReported`); absent: the page shows none. A model the stream
     * names (the reader's `model`) wins over the label.
     */
    modelLabel?: Control;
  };
  /**
   * The answer as the page shows it: the second witness of every complete
   * stream, and the fallback when the stream ends without its marker.
   */
  dom: {
    /** The answer's element (the last match is the newest answer). */
    answer: string;
    /** The stop-generating control; while it shows the answer is not done. */
    stop?: string;
    /** Everything the page shows of the newest answer; default: the answer's text. */
    read?(page: Page): Promise<RawAnswer | Answer | undefined>;
    /**
     * Set only when `read` gives the whole answer: its text, sources and
     * citations, reasoning and follow-ups as the stream would. When the
     * stream and the rendered page disagree (crawler/web/witness.ts), the
     * answer is then read from the page (`answerSource: 'dom'`); without it
     * the sub task fails as `format_drift`.
     */
    whole?: boolean;
  };
  /** The sources panel left open for the screenshot; false when the page shows none. */
  openSources?(page: Page): Promise<boolean>;
  /** A new reader for one chat call. */
  frames(o: { evidence: Evidence; stream: CapturedStream }): R;
  /**
   * After the frames, before the answer is built: what the stream left out,
   * read again through the page with its own session (a conversation's
   * stored sources). Failures here are noted, never the answer's.
   */
  afterFrames?(o: {
    page: Page;
    reader: R;
    stream: CapturedStream;
    evidence: Evidence;
  }): Promise<void>;
  /**
   * The mode that ran as the request and the page tell it: what decides when
   * the reader has no report or the stream did not reach its end marker
   * (crawler/platforms/common/ran-mode.ts), and for what the report cannot show.
   */
  effectiveMode(requestBody: string | undefined, reader: R, answer: Answer): Mode;
  /**
   * The mode the chat call asked for, from its body alone; undefined when the
   * body does not say. With the stream it confirms the controls the kit set
   * (a mismatch is `mode_not_applied`); absent: the stream confirms alone.
   */
  asked?(requestBody: string | undefined): Mode | undefined;
  /** How long silence may last before a stream without its end marker counts as stalled. */
  stallMs?(timeoutMs: number): number;
}
