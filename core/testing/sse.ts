/** A server-sent events reader for tests and benchmarks: a real HTTP stream, parsed as the browser does. */
import type { TestClient } from './index.ts';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
  /** when it arrived (performance.now()) */
  at: number;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** resolves with the first event (already received or to come) matching, or rejects after timeoutMs */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** true once the server ended the stream */
  ended(): boolean;
  whenEnded(timeoutMs?: number): Promise<void>;
  close(): void;
  /** the comment lines received (heartbeats) */
  comments: string[];
}

export async function openSse(client: TestClient, path = '/api/stream', headers: Record<string, string> = {}): Promise<SseStream> {
  const ac = new AbortController();
  const h: Record<string, string> = { accept: 'text/event-stream', ...headers };
  if (client.cookies.size) h.cookie = client.cookieHeader();
  const res = await fetch(client.base + path, { headers: h, signal: ac.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: Array<() => void> = [];
  let done = res.status !== 200;
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  if (res.status === 200 && res.body) {
    (async () => {
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      let buf = '';
      try {
        for (;;) {
          const { value, done: d } = await reader.read();
          if (d) break;
          buf += dec.decode(value, { stream: true });
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            let id: string | null = null;
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else if (line.startsWith('id:')) id = line.slice(3).trim();
              else if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
            }
            if (data.length) {
              let parsed: any = data.join('\n');
              try {
                parsed = JSON.parse(parsed);
              } catch {
                /* text */
              }
              events.push({ id, event, data: parsed, at: performance.now() });
            }
            wake();
          }
        }
      } catch {
        /* aborted */
      } finally {
        done = true;
        wake();
      }
    })();
  } else await res.text().catch(() => '');
  const wait = (cond: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (cond()) return resolve();
      const timer = setTimeout(() => reject(new Error(`SSE: ${what} did not happen within ${timeoutMs} ms (events: ${events.map((e) => e.event).join(', ')})`)), timeoutMs);
      const check = () => {
        if (cond()) {
          clearTimeout(timer);
          resolve();
        } else if (done && !cond()) {
          clearTimeout(timer);
          reject(new Error(`SSE: the stream ended before ${what}`));
        } else waiters.push(check);
      };
      waiters.push(check);
    });
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    async next(match, timeoutMs = 5000) {
      await wait(() => events.some(match), timeoutMs, 'the expected event');
      return events.find(match)!;
    },
    ended: () => done,
    async whenEnded(timeoutMs = 5000) {
      const w = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('SSE: the stream did not end')), timeoutMs);
        const check = () => {
          if (done) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
      return w;
    },
    close: () => ac.abort(),
  };
}
