/**
 * The replica's SharedWorker, as Doubao's: the page posts the chat request to
 * it, the worker signs the query (`a_bogus`, sign.ts), performs the fetch and
 * posts the stream's text back chunk by chunk. Its traffic is invisible to a
 * page-level CDP session, which is what makes the capture's worker path
 * (crawler/web/capture.ts attachWorkers) necessary on the real site.
 */
import { SIGN_SOURCE } from './sign.js';

export function workerScript(signKey: string): string {
  return String.raw`'use strict';
const SIGN_KEY = ${JSON.stringify(signKey)};
${SIGN_SOURCE}
const ports = new Set();
onconnect = (e) => {
  const port = e.ports[0];
  ports.add(port);
  port.onmessage = (m) => handle(port, m.data);
  port.start();
};
async function handle(port, msg) {
  if (!msg || msg.type !== 'chat') return;
  const { id, path, params, body } = msg;
  try {
    const query = new URLSearchParams(params).toString();
    const signature = await aBogus(SIGN_KEY, query, body);
    const url = path + '?' + query + '&a_bogus=' + encodeURIComponent(signature);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
      credentials: 'include',
    });
    port.postMessage({ type: 'response', id, status: res.status });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      port.postMessage({ type: 'chunk', id, text: decoder.decode(value, { stream: true }) });
    }
    port.postMessage({ type: 'end', id });
  } catch (err) {
    port.postMessage({ type: 'failed', id, error: String(err) });
  }
}
`;
}
