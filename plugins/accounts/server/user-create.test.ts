import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT, loadConfig } from '../../../core/config.ts';
import { openDatabase } from '../../../core/db.ts';
import { adminUrl, startTestApp, uniqueName } from '../../../core/testing/index.ts';

const SCRIPT = path.join(ROOT, 'scripts', 'user-create.ts');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function run(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, [SCRIPT, ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run user:create', function () {
  this.timeout(240_000);

  it('creates an Admin on a fresh embedded database, then refuses a duplicate, a bad role and missing values', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-usercreate-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    try {
      const name = uniqueName('admin');
      const ok = await run(['--email', `${name}@example.test`, '--username', name, '--password', 'a-long-admin-pass', '--role', 'admin'], env);
      expect(ok.code, ok.stderr).to.equal(0);
      expect(ok.stdout).to.match(new RegExp(`Created Admin '${name}'`));
      const dup = await run(['--email', `${name.toUpperCase()}@EXAMPLE.TEST`, '--username', uniqueName(), '--password', 'a-long-admin-pass'], env);
      expect(dup.code).to.not.equal(0);
      expect(dup.stderr).to.contain('An account with this email already exists');
      const role = await run(['--email', 'x@example.test', '--username', uniqueName(), '--password', 'a-long-admin-pass', '--role', 'Emperor'], env);
      expect(role.code).to.not.equal(0);
      expect(role.stderr).to.contain("unknown role 'Emperor'");
      const missing = await run(['--email', 'y@example.test'], env);
      expect(missing.code).to.not.equal(0);
      expect(missing.stderr).to.contain('missing --username, --password');
      const common = await run(['--email', 'z@example.test', '--username', uniqueName(), '--password', 'password1'], env);
      expect(common.code).to.not.equal(0);
      expect(common.stderr).to.contain('too common');
      // The user is really there, with the role.
      const db = await openDatabase(loadConfig({ dataDir, databaseUrl: null }));
      try {
        const row = await db.knex('users').where({ username: name }).first('role', 'email');
        expect(row).to.deep.equal({ role: 'Admin', email: `${name}@example.test` });
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops with a clear message while the embedded database is in use', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-usercreate-'));
    const db = await openDatabase(loadConfig({ dataDir, databaseUrl: null }));
    try {
      const r = await run(['--email', 'a@example.test', '--username', uniqueName(), '--password', 'a-long-admin-pass'], { DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(r.code).to.not.equal(0);
      expect(r.stderr).to.contain('in use by another process');
    } finally {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('works on PostgreSQL while the app runs, and the new Admin can sign in', async function () {
    if (!adminUrl()) this.skip();
    const app = await startTestApp();
    try {
      const url = app.config.databaseUrl!;
      const name = uniqueName('admin');
      const r = await run(['--email', `${name}@example.test`, '--username', name, '--password', 'a-long-admin-pass', '--role', 'Museum Manager'], { DATABASE_URL: url });
      expect(r.code, r.stderr).to.equal(0);
      const c = app.client();
      const login = await c.post('/api/auth/login', { email: `${name}@example.test`, password: 'a-long-admin-pass' });
      expect(login.status).to.equal(200);
      expect(login.body.role).to.equal('Museum Manager');
    } finally {
      await app.close();
    }
  });
});
