import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';
import { readSampleUsers, seedUsers } from './seed.ts';
import { hashPassword, isUnusableHash, unusablePasswordHash, verifyPassword } from './passwords.ts';
import { INVALID_LOGIN } from './routes-auth.ts';

const progress = { start() {}, tick() {} };

describe('accounts: sample members (seed)', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  function sampleFile(users: unknown[]): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-users-seed-'));
    const file = path.join(dir, 'users.json');
    fs.writeFileSync(file, JSON.stringify({ users }));
    return file;
  }

  it('verifyPassword refuses every password for an unusable hash, without throwing', async () => {
    const h = unusablePasswordHash();
    expect(h.startsWith('!')).to.equal(true);
    expect(h.length).to.be.greaterThan(20);
    expect(unusablePasswordHash()).to.not.equal(h);
    expect(isUnusableHash(h)).to.equal(true);
    for (const password of ['', 'secret', h, h.slice(1), '!', 'a-long-sample-password']) {
      expect(await verifyPassword(h, password), password).to.equal(false);
    }
    // malformed stored values are refused the same way
    for (const stored of ['', '!', 'plain-text', '$argon2id$garbage']) expect(await verifyPassword(stored, 'x')).to.equal(false);
    // a real hash still works
    const real = await hashPassword('correct horse battery');
    expect(isUnusableHash(real)).to.equal(false);
    expect(await verifyPassword(real, 'correct horse battery')).to.equal(true);
    expect(await verifyPassword(real, 'wrong')).to.equal(false);
  });

  it('adds members with names, bios and roles that nobody can sign in as, once', async () => {
    const [amb, mgr, trav, bad] = ['amb', 'mgr', 'trav', 'bad'].map((p) => uniqueName(`s_${p}_`).replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30));
    const file = sampleFile([
      { username: amb, email: `${amb}@sample.curio.example`, firstName: 'Elena', lastName: 'Rossi', role: 'Ambassador', bio: 'Art historian in Paris.' },
      { username: mgr, email: `${mgr}@sample.curio.example`, firstName: 'Margaret', lastName: 'Chen', role: 'museum_manager', bio: 'Visitor experience manager.' },
      { username: trav, email: `${trav}@sample.curio.example`, firstName: 'Inês', lastName: 'Costa', role: 'Traveler' },
      { username: bad, email: `${bad}@sample.curio.example`, firstName: 'No', lastName: 'Role', role: 'Emperor' },
    ]);
    const added = await seedUsers(app.contexts.get('accounts')!, progress, file);
    expect(added).to.deep.equal([amb, mgr, trav]);
    const rows = await app.knex('users').whereIn('username', [amb, mgr, trav, bad]).orderBy('id').select('*');
    expect(rows.map((r) => [r.username, r.role, r.first_name, r.last_name, r.bio])).to.deep.equal([
      [amb, 'Ambassador', 'Elena', 'Rossi', 'Art historian in Paris.'],
      [mgr, 'Museum Manager', 'Margaret', 'Chen', 'Visitor experience manager.'],
      [trav, 'Traveler', 'Inês', 'Costa', ''],
    ]);
    for (const r of rows) {
      expect(r.password_hash.startsWith('!'), r.username).to.equal(true);
      expect(r.slug).to.be.a('string').and.not.equal('');
    }
    expect(new Set(rows.map((r) => r.password_hash)).size).to.equal(3);

    // no password opens these accounts: the same answer as a wrong password
    const anon = app.client();
    for (const password of ['', 'password123', rows[0].password_hash, rows[0].password_hash.slice(1)]) {
      const r = await anon.post('/api/auth/login', { email: `${amb}@sample.curio.example`, password });
      if (password === '') {
        expect(r.status).to.equal(400);
        continue;
      }
      expect(r.status, password).to.equal(401);
      expect(r.body.message).to.equal(INVALID_LOGIN);
    }
    expect((await anon.get('/api/auth/user')).status).to.equal(401);

    // they are ordinary members to everyone else
    const viewer = await app.user();
    const profile = await viewer.get(`/api/user/${rows[0].id}`);
    expect(profile.status, profile.text).to.equal(200);
    expect(profile.body).to.include({ username: amb, role: 'Ambassador' });

    // a second run adds nothing and leaves the accounts alone
    expect(await seedUsers(app.contexts.get('accounts')!, progress, file)).to.deep.equal([]);
    const again = await app.knex('users').whereIn('username', [amb, mgr, trav, bad]).orderBy('id').select('id', 'password_hash');
    expect(again).to.deep.equal(rows.map((r) => ({ id: r.id, password_hash: r.password_hash })));
  });

  it('never touches a real account whose username or email a sample wants', async () => {
    const real = await app.user();
    const other = uniqueName('s_other_').replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30);
    const file = sampleFile([
      { username: real.me.username, email: `${other}@sample.curio.example`, firstName: 'A', lastName: 'B', role: 'Ambassador' },
      { username: other, email: real.me.email, firstName: 'C', lastName: 'D', role: 'Ambassador' },
    ]);
    const before = await app.knex('users').where({ id: real.me.id }).first();
    expect(await seedUsers(app.contexts.get('accounts')!, progress, file)).to.deep.equal([]);
    expect(await app.knex('users').where({ id: real.me.id }).first()).to.deep.equal(before);
    expect(await app.knex('users').where({ username: other }).first()).to.equal(undefined);
    expect((await real.get('/api/auth/user')).status).to.equal(200);
  });

  it('ships about a dozen sample members: realistic, valid, with Ambassadors and a Museum Manager', () => {
    const users = readSampleUsers();
    expect(users.length).to.be.within(10, 20);
    const roles = users.map((u) => u.role);
    expect(roles.filter((r) => r === 'Ambassador').length).to.be.at.least(2);
    expect(roles.filter((r) => r === 'Museum Manager').length).to.equal(1);
    expect(roles.every((r) => ['Traveler', 'Ambassador', 'Museum Manager'].includes(r))).to.equal(true);
    expect(new Set(users.map((u) => u.username.toLowerCase())).size).to.equal(users.length);
    expect(new Set(users.map((u) => u.email.toLowerCase())).size).to.equal(users.length);
    for (const u of users) {
      expect(u.username).to.match(/^[A-Za-z0-9_.-]{3,30}$/);
      expect(u.email).to.match(/@[a-z.]+\.example$/);
      expect(u.firstName.trim()).to.not.equal('');
      expect(u.lastName.trim()).to.not.equal('');
      expect((u.bio ?? '').length).to.be.within(20, 200);
    }
  });

  it('runs before the plugins whose seeds need members (plugin dependency order)', () => {
    const order = [...app.servers.keys()];
    for (const id of ['communities', 'groups', 'events']) {
      if (order.includes(id)) expect(order.indexOf('accounts'), id).to.be.lessThan(order.indexOf(id));
    }
  });
});
