import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CurioConfig } from './config.ts';
import type { Jobs } from './jobs.ts';
import { fillTemplate, localeFile, textAt } from './texts.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** extra headers (List-Unsubscribe…) */
  headers?: Record<string, string>;
}

export const MAIL_JOB = 'core.mail.send';
const MAX_ATTEMPTS = 6;

/**
 * The one mailer (a generic service: plugins bring the templates). Messages are sent by a
 * background job (never inside a request), retried with backoff. Each message has a key used
 * once ever (core_job_keys) and its sent state is recorded (core_mail_sent) before the job is
 * marked done, so a retry never sends it twice; its Message-ID derives from the key, so that even
 * a send whose bookkeeping failed is recognised as the same message by the receiving server.
 *
 * With SMTP_URL, nodemailer's SMTP client; without, nodemailer's stream transport writes each
 * message as an .eml file under DATA_DIR/mail/ (and the log says where).
 */
export class Mailer {
  private transport: Transporter | null = null;
  private origin = 'http://localhost';
  readonly dir: string;

  constructor(private config: CurioConfig, private knex: Knex, private jobs: Jobs, private log: Logger) {
    this.dir = path.join(config.dataDir, 'mail');
    jobs.define(MAIL_JOB, (payload: { key: string; message: MailMessage }) => this.deliver(payload.key, payload.message));
  }

  /** Where links in emails point: PUBLIC_ORIGIN, else the address the app listens on. */
  publicOrigin(): string {
    return this.config.publicOrigin ?? this.origin;
  }

  setListenOrigin(url: string): void {
    this.origin = url;
  }

  /** An absolute link to a path of the web app. */
  link(pathAndQuery: string): string {
    return new URL(pathAndQuery, this.publicOrigin()).toString();
  }

  /**
   * Queues a message; `key` names it for ever (e.g. `accounts.reset:<tokenId>`): a second send
   * with the same key does nothing and answers false. `db`: the caller's transaction.
   */
  async send(key: string, message: MailMessage, opts: { db?: Knex; runAt?: Date } = {}): Promise<boolean> {
    const job = await this.jobs.enqueueOnce(MAIL_JOB, { key, message }, `mail:${key}`, { db: opts.db, runAt: opts.runAt, maxAttempts: MAX_ATTEMPTS });
    return job !== null;
  }

  private getTransport(): Transporter {
    if (this.transport) return this.transport;
    if (this.config.smtpUrl) {
      this.transport = nodemailer.createTransport(this.config.smtpUrl);
    } else {
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.log.info({ dir: this.dir }, `SMTP_URL is not set: emails are written as .eml files under ${this.dir}`);
    }
    return this.transport;
  }

  private async deliver(key: string, message: MailMessage): Promise<{ sent: boolean; messageId: string }> {
    const already = await this.knex('core_mail_sent').where({ key }).first('message_id');
    if (already) return { sent: false, messageId: already.message_id };
    const messageId = `<${crypto.createHash('sha256').update(key).digest('hex').slice(0, 32)}@curio>`;
    const info = await this.getTransport().sendMail({
      from: this.config.mailFrom,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.headers,
      messageId,
    });
    if (!this.config.smtpUrl) {
      fs.mkdirSync(this.dir, { recursive: true });
      const safe = key.replace(/[^\w.-]+/g, '_').slice(0, 80);
      const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safe}.eml`);
      fs.writeFileSync(file, (info as any).message as Buffer);
      this.log.info({ file, to: message.to }, `email written to ${file}`);
    }
    await this.knex('core_mail_sent').insert({ key, message_id: messageId, recipient: message.to.slice(0, 320) }).onConflict('key').ignore();
    return { sent: true, messageId };
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

// ---- templates: plugins bring their strings (locales/email/<lang>.json), this lays them out ----


/** Email languages, the first being the fallback. */
export const EMAIL_LOCALES = ['en', 'fr'] as const;

/** The language for a member's locale or an Accept-Language header (en when nothing matches). */
export function emailLocale(pref: string | null | undefined): 'en' | 'fr' {
  for (const part of String(pref ?? '').split(',')) {
    const l = part.trim().slice(0, 2).toLowerCase();
    if ((EMAIL_LOCALES as readonly string[]).includes(l)) return l as 'en' | 'fr';
  }
  return 'en';
}

/** A translator over `<dir>/<lang>.json` ({{name}} placeholders, dotted keys). */
export function emailTranslator(dir: string, lang: string): (key: string, vars?: Record<string, string | number>) => string {
  const load = (l: string) => {
    const file = path.join(dir, `${l}.json`);
    const s = localeFile(file);
    if (!s) throw new Error(`missing email strings ${file}`);
    return s;
  };
  return (key, vars = {}) => {
    let v = textAt(load(lang), key);
    if (typeof v !== 'string') v = textAt(load('en'), key);
    if (typeof v !== 'string') throw new Error(`missing email string ${key}`);
    return fillTemplate(v, vars);
  };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface EmailLayout {
  lang: string;
  subject: string;
  /** plain paragraphs (escaped in HTML) */
  paragraphs: string[];
  /** items listed after the paragraphs, each with an optional link */
  items?: Array<{ text: string; url?: string }>;
  action?: { label: string; url: string };
  /** small print at the end (why you got this, unsubscribe) */
  footer?: string[];
  /** a link in the footer (unsubscribe) */
  footerLink?: { label: string; url: string };
}

/** HTML and plain-text bodies of one email, from the same parts. */
export function layoutEmail(e: EmailLayout): { subject: string; html: string; text: string } {
  const text = [
    ...e.paragraphs,
    ...(e.items?.length ? [e.items.map((i) => `- ${i.text}${i.url ? `\n  ${i.url}` : ''}`).join('\n')] : []),
    ...(e.action ? [`${e.action.label}: ${e.action.url}`] : []),
    ...(e.footer?.length || e.footerLink ? ['--', ...(e.footer ?? []), ...(e.footerLink ? [`${e.footerLink.label}: ${e.footerLink.url}`] : [])] : []),
  ].join('\n\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html><html lang="${escapeHtml(e.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(e.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#222;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(e.subject)}</h1>
${e.paragraphs.map(p).join('\n')}
${e.items?.length ? `<ul style="padding-left:20px;margin:0 0 16px">${e.items.map((i) => `<li>${i.url ? `<a href="${escapeHtml(i.url)}">${escapeHtml(i.text)}</a>` : escapeHtml(i.text)}</li>`).join('')}</ul>` : ''}
${e.action ? `<p style="margin:24px 0"><a href="${escapeHtml(e.action.url)}" style="background:#485fc7;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(e.action.label)}</a></p><p style="font-size:13px;color:#555;word-break:break-all">${escapeHtml(e.action.url)}</p>` : ''}
${e.footer?.length || e.footerLink ? `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0"><div style="font-size:12px;color:#666">${(e.footer ?? []).map(p).join('')}${e.footerLink ? `<p><a href="${escapeHtml(e.footerLink.url)}">${escapeHtml(e.footerLink.label)}</a></p>` : ''}</div>` : ''}
</div></body></html>`;
  return { subject: e.subject, html, text };
}
