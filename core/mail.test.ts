import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, waitFor, type TestApp } from './testing/index.ts';
import { startSmtpServer, type TestSmtp } from './testing/smtp.ts';
import { layoutEmail, emailLocale } from './mail.ts';

const message = (to: string, subject: string) => ({
  to,
  ...layoutEmail({ lang: 'en', subject, paragraphs: ['Hello <you> & welcome'], action: { label: 'Open', url: 'http://example.test/x?a=1&b=2' } }),
});

describe('core mail: nodemailer through background jobs, once per key', function () {
  describe('over SMTP', () => {
    let smtp: TestSmtp;
    let app: TestApp;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp({ smtpUrl: smtp.url, mailFrom: 'Curio Test <noreply@curio.test>' });
    });
    after(async () => {
      await app?.close();
      await smtp?.close();
    });

    it('sends HTML and plain text from a job, with the configured From', async () => {
      expect(await app.mail.send('test:hello', message('ada@example.test', 'Hello Ada'))).to.equal(true);
      const m = await smtp.waitFor('ada@example.test');
      expect(m.subject).to.equal('Hello Ada');
      expect(m.parsed.from?.value[0]).to.include({ name: 'Curio Test', address: 'noreply@curio.test' });
      expect(m.text).to.contain('Hello <you> & welcome');
      expect(m.text).to.contain('Open: http://example.test/x?a=1&b=2');
      expect(m.html).to.contain('Hello &lt;you&gt; &amp; welcome');
      expect(m.html).to.contain('href="http://example.test/x?a=1&amp;b=2"');
    });

    it('sends a key once even when queued again, concurrently', async () => {
      const results = await Promise.all([1, 2, 3].map(() => app.mail.send('test:once', message('bob@example.test', 'Once'))));
      expect(results.filter(Boolean)).to.have.length(1);
      await smtp.waitFor('bob@example.test');
      expect(await app.mail.send('test:once', message('bob@example.test', 'Once'))).to.equal(false);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.to('bob@example.test')).to.have.length(1);
    });

    it('retries with backoff when the server refuses, and delivers exactly once', async () => {
      smtp.failNext(2);
      await app.mail.send('test:retry', message('cy@example.test', 'Retry'));
      const job = await waitFor(async () => {
        const j = await app.knex('core_jobs').where({ unique_key: 'mail:test:retry' }).first();
        return j && j.attempts >= 1 && j.status === 'queued' ? j : null;
      });
      expect(j(job.run_at)).to.be.greaterThan(Date.now());
      // move time past the backoffs instead of waiting for them
      app.jobs.setClock(() => new Date(Date.now() + 3600_000));
      try {
        await waitFor(async () => (await app.knex('core_jobs').where({ unique_key: 'mail:test:retry' }).first())?.status === 'done', { timeout: 10_000 });
      } finally {
        app.jobs.setClock(null);
      }
      expect(smtp.to('cy@example.test')).to.have.length(1);
      const row = await app.knex('core_jobs').where({ unique_key: 'mail:test:retry' }).first();
      expect(row.attempts).to.equal(3);
      expect(await app.knex('core_mail_sent').where({ key: 'test:retry' }).first()).to.be.an('object');
    });
  });

  it('without SMTP_URL writes .eml files under DATA_DIR/mail', async () => {
    const app = await startTestApp();
    try {
      expect(app.config.smtpUrl).to.equal(null);
      await app.mail.send('test:file', message('dee@example.test', 'On disk'));
      const dir = path.join(app.config.dataDir, 'mail');
      const file = await waitFor(async () => (fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.eml')) : undefined));
      const raw = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(raw).to.match(/^Subject: On disk$/m);
      expect(raw).to.match(/^To: dee@example.test$/m);
    } finally {
      await app.close();
    }
  });

  it('picks en or fr from a locale or Accept-Language', () => {
    expect(emailLocale('fr-CA,fr;q=0.9,en;q=0.8')).to.equal('fr');
    expect(emailLocale('de-DE,en;q=0.5')).to.equal('en');
    expect(emailLocale(null)).to.equal('en');
  });
});

function j(d: Date | string): number {
  return new Date(d).getTime();
}
