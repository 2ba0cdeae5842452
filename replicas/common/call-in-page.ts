/**
 * The `call_in_page` drift: a page whose chat call runs in a SharedWorker
 * makes it from the page itself, as a site's older build did and its next
 * may again. Injected first into the page, the script replaces
 * `SharedWorker` with a stand-in that loads the worker's own script and runs
 * it in the page, connected to the page through a MessageChannel: the
 * worker's code (its signature, its fetch, its stream reading) is the same,
 * only its realm changes, so the call and its stream are now the page's
 * network. What the page sends and renders stays the same.
 *
 * The worker's script sees the globals a shared worker listens and answers
 * with: `onconnect` (the page's port in `ports[0]`), `self`, and a `fetch`
 * that resolves relative URLs against the script, as a worker's does.
 */
export const CALL_IN_PAGE = String.raw`(() => {
  const connect = async (url, port) => {
    const script = new URL(url, location.href).href;
    const source = await fetch(script).then((r) => r.text());
    const scope = {
      fetch: (input, init) => fetch(typeof input === 'string' ? new URL(input, script).href : input, init),
    };
    const onconnect = new Function('self', 'fetch',
      'let onconnect = null;\n' + source + '\nreturn onconnect || self.onconnect;')(scope, scope.fetch);
    if (onconnect) onconnect({ ports: [port], data: '' });
  };
  window.SharedWorker = class {
    constructor(url) {
      const channel = new MessageChannel();
      this.port = channel.port1;
      this.onerror = null;
      connect(url, channel.port2).catch((err) => console.error('the worker did not start in the page', err));
    }
  };
})();`;
