/**
 * What a Chat Completions request asks the sandbox for, pure. The mode comes
 * from the model name (`sandbox-reasoning-search`, as vendors pick behaviour
 * by model), then from the switches the OpenAI-style vendors share:
 * `thinking: {type: "enabled" | "disabled"}` (DeepSeek, Doubao, Zhipu) and
 * `web_search: {enable}` (Qianfan).
 */
import { MODES, type Mode } from '../services/shared/platforms.js';
import { modeFlags, modeFromFlags } from './answers.js';

/** The model the sandbox names for a mode (`sandbox-reasoning-search`). */
export function sandboxModel(mode: Mode): string {
  return `sandbox-${mode.replace('_', '-')}`;
}

const MODEL_MODES: ReadonlyMap<string, Mode> = new Map(MODES.map((m) => [sandboxModel(m), m]));

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The mode an API request asks for: the model name, then explicit switches. */
export function modeOfRequest(body: Obj): Mode {
  const base = typeof body.model === 'string' ? MODEL_MODES.get(body.model) : undefined;
  let { reasoning, search } = modeFlags(base ?? 'standard');
  const thinking = isObj(body.thinking) ? body.thinking.type : undefined;
  if (thinking === 'enabled' || thinking === 'disabled') reasoning = thinking === 'enabled';
  const webSearch = isObj(body.web_search) ? body.web_search.enable : undefined;
  if (typeof webSearch === 'boolean') search = webSearch;
  return modeFromFlags(reasoning, search);
}

/** The text of the last user message (string content or text parts). */
export function promptOfMessages(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (!m || m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .map((p: { type?: unknown; text?: unknown }) =>
          p && p.type === 'text' && typeof p.text === 'string' ? p.text : '',
        )
        .join('');
    }
  }
  return undefined;
}
