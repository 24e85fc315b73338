/** A small JSON GET for the external services (Wikidata, geocoding): timeouts and clear errors. */

export class ExternalServiceError extends Error {
  constructor(
    readonly service: string,
    readonly kind: 'timeout' | 'network' | 'status' | 'body',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export async function getJson(service: string, url: string, opts: { timeoutMs: number; userAgent: string; accept?: string; language?: string }): Promise<any> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { 'User-Agent': opts.userAgent, Accept: opts.accept ?? 'application/json', ...(opts.language ? { 'Accept-Language': opts.language } : {}) },
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: 'follow',
    });
  } catch (e: any) {
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') throw new ExternalServiceError(service, 'timeout', `${service} did not answer within ${opts.timeoutMs} ms`);
    throw new ExternalServiceError(service, 'network', `${service} could not be reached: ${e?.cause?.code ?? e?.message ?? e}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e: any) {
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') throw new ExternalServiceError(service, 'timeout', `${service} did not answer within ${opts.timeoutMs} ms`);
    throw new ExternalServiceError(service, 'network', `${service} answer was cut: ${e?.message ?? e}`);
  }
  if (!res.ok) throw new ExternalServiceError(service, 'status', `${service} answered ${res.status}`, res.status);
  try {
    return JSON.parse(text);
  } catch {
    throw new ExternalServiceError(service, 'body', `${service} answered something that is not JSON`);
  }
}
