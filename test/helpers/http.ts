/** A tiny HTTP client for tests: JSON in, status/headers/JSON out. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export class Client {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, o: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | Uint8Array | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, token?: string) {
    return this.request<T>('GET', path, { token });
  }

  post<T = any>(path: string, body: unknown, token?: string) {
    return this.request<T>('POST', path, { body, token });
  }
}
