/** Core routes: the live-update stream. */
import { member, type AuthzRow } from './types.ts';
import { TestClient, type TestResponse } from '../../testing/index.ts';

/**
 * A client that reads only the status and headers of an answer, then cancels the body: an open
 * stream never ends, so reading it whole would wait forever.
 */
export class HeadOnlyClient extends TestClient {
  override async req<T = any>(method: string, path: string): Promise<TestResponse<T>> {
    const res = await this.raw(method, path);
    if (res.status === 200) {
      await res.body?.cancel();
      return { status: 200, body: null as any, text: '', headers: res.headers };
    }
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, text, headers: res.headers };
  }
}

export function headOnly(from: TestClient): HeadOnlyClient {
  const c = new HeadOnlyClient(from.base);
  for (const [k, v] of from.cookies) c.cookies.set(k, v);
  return c;
}

export const rows: AuthzRow[] = [
  {
    route: 'GET /api/stream',
    note: 'the signed-in member’s own events only (the stream has no parameter naming anyone)',
    req: (p) => ({ client: headOnly(p.client) }),
    expect: member(200),
  },
];
