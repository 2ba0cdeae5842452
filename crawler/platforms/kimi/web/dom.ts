/**
 * Kimi's page as the driver sees it: the DOM hooks (platforms.md §15:
 * `msh-chatinput-editor` / `msh-chatinput-send-button` test ids,
 * `.segment-container` / `.paragraph` for the answer text; the 长思考 and
 * 联网搜索 switches; the send button turning into a stop button while an
 * answer streams) and the in-page reads, as plain strings so no loader can
 * rewrite them. The class names beyond the test ids are **unverified** against
 * the live site and are the first thing to re-check with `driver-check`.
 */
export const SEL = {
  editor: '[data-testid="msh-chatinput-editor"]',
  send: '[data-testid="msh-chatinput-send-button"]',
  stop: '[data-testid="msh-chatinput-send-button"].stop',
  loginModal: '.login-modal:not([hidden])',
  loggedInMark: '.user-info',
  loginButton: '.login-button',
  lastAnswer: '.segment-assistant:last-of-type',
  sourcesButton: '.segment-assistant:last-of-type .site-card-button:not([hidden])',
  sourcesPanel: '.sources-panel:not([hidden])',
} as const;

/** The switch labels of Kimi's composer. */
export const SWITCH = { thinking: '长思考', search: '联网搜索' } as const;

/** What the page shows right now, in one round trip. */
export interface PageSignals {
  ui: boolean;
  loggedIn: boolean;
  loginModal: boolean;
  captcha: string | null;
  toast: string | null;
  streaming: boolean;
  answerText: string;
  notice: string;
}

export const SIGNALS_SCRIPT = `(() => {
  const q = (s) => document.querySelector(s);
  const visible = (el) => !!el && !el.closest('[hidden]') && el.getClientRects().length > 0;
  const captcha = q('.captcha-overlay');
  const toasts = document.querySelectorAll('.toast-error');
  const answers = document.querySelectorAll('.segment-assistant');
  const last = answers[answers.length - 1];
  const paragraphs = last ? Array.from(last.querySelectorAll('.segment-container .paragraph')) : [];
  const notice = last ? last.querySelector('.segment-notice') : null;
  return {
    ui: !!q('${SEL.editor}'),
    loggedIn: !!q('${SEL.loggedInMark}'),
    loginModal: visible(q('.login-modal')),
    captcha: visible(captcha) ? (captcha.textContent || '').trim() || 'slide captcha' : null,
    toast: toasts.length ? (toasts[toasts.length - 1].textContent || '').trim() : null,
    streaming: !!q('${SEL.stop}'),
    answerText: paragraphs.map((p) => p.textContent || '').join('\\n\\n').trim(),
    notice: visible(notice) ? (notice.textContent || '').trim() : '',
  };
})()`;
