/**
 * The `call_in_worker` drift: the page's POST calls (the chat call among them)
 * move into a dedicated web worker, as a site's next build may move them to
 * keep the page responsive. Injected first into the page, the script replaces
 * the page's `fetch` for POSTs: a worker started with the page performs the
 * call with the page's cookies (same origin) and streams the response back
 * chunk by chunk, which the page reads as the Response it always read. Only
 * the page's network changes: what the page sends and renders stays the same,
 * so the driver's capture must see a worker's network to find the stream.
 */
const WORKER = String.raw`
onmessage = async (m) => {
  const { id, url, init } = m.data;
  try {
    const res = await fetch(url, init);
    postMessage({ id, status: res.status, headers: [...res.headers] });
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      postMessage({ id, chunk: value }, [value.buffer]);
    }
    postMessage({ id, done: true });
  } catch (err) {
    postMessage({ id, error: String(err) });
  }
};`;

export const CALL_IN_WORKER = String.raw`(() => {
  const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER)}], { type: 'text/javascript' })));
  const calls = new Map();
  let next = 1;
  worker.onmessage = (m) => {
    const call = calls.get(m.data.id);
    if (!call) return;
    if (m.data.status !== undefined) {
      const body = new ReadableStream({ start: (c) => (call.body = c) });
      call.resolve(new Response(body, { status: m.data.status, headers: m.data.headers }));
    } else if (m.data.chunk) call.body.enqueue(m.data.chunk);
    else if (m.data.done) { call.body.close(); calls.delete(m.data.id); }
    else if (m.data.error) {
      if (call.body) call.body.error(new TypeError(m.data.error)); else call.reject(new TypeError(m.data.error));
      calls.delete(m.data.id);
    }
  };
  const pageFetch = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const method = (init.method || 'GET').toUpperCase();
    if (method !== 'POST' || typeof input !== 'string') return pageFetch(input, init);
    const id = next++;
    const headers = Object.fromEntries(new Headers(init.headers || {}));
    const sent = { method, headers, body: init.body, credentials: 'same-origin' };
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject });
      worker.postMessage({ id, url: new URL(input, location.href).href, init: sent });
    });
  };
})();`;
