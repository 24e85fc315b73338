/**
 * A real SMTP server in the test process (smtp-server) that keeps every message it receives,
 * parsed with mailparser. Point the app at it with `smtpUrl: server.url`.
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { waitFor } from './index.ts';

export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  parsed: ParsedMail;
  to: string;
  subject: string;
  /** when the message was received (Date.now()) */
  receivedAt: number;
  text: string;
  html: string;
  header(name: string): string | undefined;
  /** every http(s) link in the plain-text part */
  links(): string[];
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** refuse the next n messages with a temporary error (451), as a struggling server would */
  failNext(n: number): void;
  /** the messages to `address` so far */
  to(address: string): ReceivedMail[];
  /** waits for a message to `address` matching `pred` (default: any) */
  waitFor(address: string, pred?: (m: ReceivedMail) => boolean, timeout?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (failures > 0) {
          failures--;
          const err: any = new Error('Try again later');
          err.responseCode = 451;
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await simpleParser(raw);
        const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
        messages.push({
          receivedAt: Date.now(),
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed,
          to,
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
          // the raw header (mailparser turns List-* headers into structures): unfolded, trimmed
          header: (name) => {
            const line = parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
            return line === undefined ? undefined : line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
          },
          links: () => [...(parsed.text ?? '').matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  const forAddress = (address: string) => messages.filter((m) => m.envelopeTo.some((a) => a.toLowerCase() === address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext: (n) => void (failures = n),
    to: forAddress,
    waitFor: (address, pred = () => true, timeout = 30_000) => waitFor(async () => forAddress(address).find(pred), { timeout, interval: 50 }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
