/**
 * DOM-side drift, as a real site changes from one month to the next, applied
 * to whatever page text a replica serves (its HTML and its page scripts), so
 * the replica's own script keeps working while a driver that leaned on one
 * class or test id stops finding it. Chosen when the replica starts
 * (`drift`), like a site's next release:
 * - renamed_classes: every class name with a hyphen becomes a hashed one
 *   (`ds-toggle-button` → `c3f9a1e`), in markup, styles and scripts alike;
 * - no_testids: the `data-testid` hooks are gone (renamed `data-qa`);
 * - other_widget: a switch is drawn as a pressed button and a pressed button
 *   as a switch (`aria-checked` ⇄ `aria-pressed`, role switch ⇄ button);
 * - slow_first_byte: the chat call's first byte comes SLOW_FIRST_BYTE_MS late;
 * - no_new_chat: the page has no new-chat control (a kept page's next chat
 *   then needs a reload); a replica marks its control `data-new-chat`;
 * - call_in_worker: the page's POST calls, the chat call among them, move
 *   into a dedicated web worker (call-in-worker.ts);
 * - call_in_page: the page's SharedWorker runs in the page itself, its chat
 *   call with it (call-in-page.ts);
 * - chat_path_redirect: the documented start path redirects to a new chat
 *   path; chat_path_moved: the start path is a 404 and the root serves the
 *   chat page or leads to the new path (chat-path.ts: routes, not page text).
 * Each call drift moves the call to where a replica does not make it
 * (`CallFrom`): the other one would leave its page as it was.
 * - the mode drifts (mode-drift.ts): nameless_controls, checkbox_controls,
 *   menu_controls, model_name_picker (the mode controls drawn as another
 *   build draws them) and persisted_mode (the last choices remembered per
 *   account); one script for every replica, run before the page's own.
 *
 * Stream drifts, which each replica applies to its own chat stream in the
 * site's own format (replicas/<site>/stream-drift.ts), its page rendering
 * the whole answer as the site's next build would:
 * - empty_sentinels: content-free frames at the start and between chunks
 *   (expected: the exact answer, from the stream);
 * - unknown_content_frame: an unknown event type before the end marker
 *   carrying part of the answer's text, that text removed from the known
 *   chunks (Doubao's `STREAM_CHUNK_V2` with `delta_ops[{op, block_id, text}]`);
 * - renamed_fields: the answer's text field renamed in the chunk frames.
 * For the last two the stream and the page disagree (crawler/web/witness.ts):
 * the exact answer from the page where the site's DOM reader is whole
 * (`answerSource: 'dom'`), else a `format_drift` failure within seconds;
 * never a completed partial answer (`STREAM_DRIFTS`).
 */
import { createHash } from 'node:crypto';
import { CALL_IN_PAGE } from './call-in-page.js';
import { CALL_IN_WORKER } from './call-in-worker.js';
import { MODE_DRIFTS, modeDriftScript, type ModeDrift } from './mode-drift.js';

export const DRIFTS = [
  'none',
  'renamed_classes',
  'no_testids',
  'other_widget',
  'slow_first_byte',
  'no_new_chat',
  'call_in_worker',
  'call_in_page',
  'chat_path_redirect',
  'chat_path_moved',
  ...MODE_DRIFTS,
  'empty_sentinels',
  'unknown_content_frame',
  'renamed_fields',
] as const;
export type Drift = (typeof DRIFTS)[number];
/**
 * What a replica is started with: one drift, or several composed (a seeded
 * combination, as a site's next release changes several things at once).
 */
export type Drifts = Drift | readonly Drift[];

/** What each stream drift yields: the stream's exact answer, or the witnesses' verdict. */
export const STREAM_DRIFTS = {
  empty_sentinels: 'answer',
  unknown_content_frame: 'witness',
  renamed_fields: 'witness',
} as const satisfies Partial<Record<Drift, 'answer' | 'witness'>>;

/** The drifts as a set; `none` and undefined are the empty set. */
export function driftSet(d: Drifts | undefined): ReadonlySet<Drift> {
  const all = d === undefined ? [] : typeof d === 'string' ? [d] : d;
  return new Set(all.filter((x) => x !== 'none'));
}

/** Whether the replica runs under `which`. */
export const hasDrift = (d: Drifts | undefined, which: Drift): boolean => driftSet(d).has(which);

/** Where a replica's page makes its chat call: itself, or in a worker it starts. */
export type CallFrom = 'page' | 'worker';

/** Every drift but the one that would move the call where the replica already makes it. */
export function driftsOf(from: CallFrom): Drift[] {
  return DRIFTS.filter((d) => d !== (from === 'page' ? 'call_in_page' : 'call_in_worker'));
}

/** Where the chat call runs on the drifted page of a replica that makes it `from`. */
export function callFromUnder(drifts: Drifts, from: CallFrom): CallFrom {
  if (hasDrift(drifts, 'call_in_page')) return 'page';
  if (hasDrift(drifts, 'call_in_worker')) return 'worker';
  return from;
}

export const SLOW_FIRST_BYTE_MS = 2_500;

const HYPHENATED = '[a-z][a-z0-9_]*(?:-{1,2}[a-z0-9_]+)+';
const CLASS_ATTR = /class(?:Name)?\s*=\s*(?:\\?["'])([^"'\\]*)/g;
const SELECTOR = new RegExp(`\\.(${HYPHENATED})`, 'g');
const CLASS_LIST = new RegExp(`classList\\.\\w+\\(\\s*['"](${HYPHENATED})['"]`, 'g');

const hashed = (name: string) => `c${createHash('sha256').update(name).digest('hex').slice(0, 7)}`;

/** Every hyphenated class name the text uses: in class attributes, selectors and classList calls. */
function classNames(text: string): Set<string> {
  const found = new Set<string>();
  const hyphenated = new RegExp(`^${HYPHENATED}$`);
  for (const m of text.matchAll(CLASS_ATTR))
    for (const name of m[1]!.split(/\s+/)) if (hyphenated.test(name)) found.add(name);
  for (const m of text.matchAll(SELECTOR)) found.add(m[1]!);
  for (const m of text.matchAll(CLASS_LIST)) found.add(m[1]!);
  return found;
}

function renameClasses(text: string): string {
  // Longest first, so `a-b--on` is not cut by `a-b`.
  const names = [...classNames(text)].sort((a, b) => b.length - a.length);
  let out = text;
  for (const name of names) {
    const escaped = name.replace(/[-]/g, '\\-');
    out = out.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'g'), hashed(name));
  }
  return out;
}

/** A replica's new-chat control: one element, marked `data-new-chat`, holding no element of its own tag. */
const NEW_CHAT = /<(\w+)\b[^>]*\bdata-new-chat\b[^>]*>.*?<\/\1>/gs;

function swapWidgets(text: string): string {
  return text
    .replace(/aria-pressed/g, '\u0000')
    .replace(/aria-checked/g, 'aria-pressed')
    .replace(/\u0000/g, 'aria-checked')
    .replace(/role="switch"/g, '\u0001')
    .replace(/role="button"(?=[^>]*aria-checked)/g, 'role="switch"')
    .replace(/\u0001/g, 'role="button"');
}

/** The HTML with `script` run before any of the page's own. */
const first = (html: string, script: string) =>
  html.replace(/<head>/i, () => `<head><script>${script}</script>`);

/** One drift applied to the page text. */
function driftOne(text: string, drift: Drift): string {
  if (drift === 'renamed_classes') return renameClasses(text);
  if (drift === 'no_testids') return text.replace(/data-testid/g, 'data-qa');
  if (drift === 'other_widget') return swapWidgets(text);
  if (drift === 'no_new_chat') return text.replace(NEW_CHAT, '');
  if (drift === 'call_in_worker') return first(text, CALL_IN_WORKER);
  if (drift === 'call_in_page') return first(text, CALL_IN_PAGE);
  return text;
}

/**
 * The page text (HTML or page script) as the drifted site serves it: each
 * drift in DRIFTS order, so class names are hashed after the other drifts
 * have added their markup.
 */
export function driftPage(text: string, drifts: Drifts): string {
  const set = driftSet(drifts);
  const ordered = DRIFTS.filter((d) => set.has(d) && d !== 'renamed_classes');
  const modes = MODE_DRIFTS.filter((d) => set.has(d));
  let out = ordered.reduce(driftOne, text);
  if (modes.length > 0) out = first(out, modeDriftScript(modes as ModeDrift[]));
  return set.has('renamed_classes') ? renameClasses(out) : out;
}

/** Waits before the chat call answers, when the drift says its first byte is slow. */
export async function firstByte(drifts: Drifts): Promise<void> {
  if (hasDrift(drifts, 'slow_first_byte'))
    await new Promise((r) => setTimeout(r, SLOW_FIRST_BYTE_MS));
}
