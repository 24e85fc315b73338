/**
 * The lock of the embedded database (core/db-lock.ts) with real processes: a lock left by a
 * process that was killed is taken over at once; a live owner is refused with a clear message;
 * what cannot be judged (another host, no record of its own) waits for the lock to go stale.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { ROOT } from './config.ts';
import { DatabaseLockedError, openDatabase } from './db.ts';
import { lockEmbeddedDatabase, lockPaths, readLockOwner, type LockOwner } from './db-lock.ts';

// HOLD=db opens the database as the app does; HOLD=lock only takes its lock (quicker).
const HOLDER = `
const dataDir = process.env.DATA_DIR;
try {
  if (process.env.HOLD === 'db') {
    const { openDatabase } = await import(process.env.DB_MODULE);
    const db = await openDatabase({ databaseUrl: null, dataDir });
    await db.knex.raw('select 1');
  } else {
    const { lockEmbeddedDatabase } = await import(process.env.LOCK_MODULE);
    await lockEmbeddedDatabase(dataDir, dataDir + '/db');
  }
  console.log('HOLDING');
  setInterval(() => {}, 60_000);
} catch (e) {
  console.log('REFUSED ' + e.message);
  process.exit(3);
}`;

interface Holder {
  proc: ChildProcess;
  /** 'holding' once it holds the database, or the refusal / crash it reported */
  outcome: Promise<string>;
  exited: Promise<void>;
}

const children: ChildProcess[] = [];

/** A process that holds the embedded database of dataDir until killed. */
function holder(dataDir: string, hold: 'db' | 'lock' = 'lock'): Holder {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOLD: hold,
      DB_MODULE: pathToFileURL(path.join(ROOT, 'core', 'db.ts')).href,
      LOCK_MODULE: pathToFileURL(path.join(ROOT, 'core', 'db-lock.ts')).href,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const outcome = new Promise<string>((resolve) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      if (/HOLDING/.test(out)) resolve('holding');
      const m = /REFUSED (.*)/.exec(out);
      if (m) resolve(`refused: ${m[1]}`);
    });
    proc.stderr!.on('data', (d) => (out += d));
    void exited.then(() => resolve(`exited: ${out.slice(-2000)}`));
  });
  return { proc, outcome, exited };
}

async function kill(h: Holder, signal: NodeJS.Signals) {
  if (h.proc.exitCode === null && h.proc.signalCode === null) h.proc.kill(signal);
  await h.exited;
}

/** The database of dataDir held by a process that was then killed with SIGKILL. */
async function crashedHolder(dataDir: string, hold: 'db' | 'lock' = 'lock'): Promise<LockOwner> {
  const h = holder(dataDir, hold);
  expect(await h.outcome).to.equal('holding');
  const owner = readLockOwner(dataDir)!;
  expect(owner, 'the holder recorded itself').to.not.equal(null);
  expect(owner.pid).to.equal(h.proc.pid);
  await kill(h, 'SIGKILL');
  const lock = lockPaths(dataDir).lock;
  expect(fs.existsSync(lock), 'the killed holder left its lock behind').to.equal(true);
  // As if it had refreshed its lock just before it died (on a loaded machine it may not have since
  // it took it): what follows is decided by the record, never by the lock having gone stale.
  const now = new Date();
  fs.utimesSync(lock, now, now);
  return owner;
}

function rewriteOwner(dataDir: string, change: Partial<LockOwner>) {
  const file = lockPaths(dataDir).owner;
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...change }));
}

/** Takes and releases the lock as a second owner would; throws what a refused one gets. */
async function takeLock(dataDir: string) {
  const release = await lockEmbeddedDatabase(dataDir, path.join(dataDir, 'db'));
  expect(readLockOwner(dataDir)!.pid, 'the record now names this process').to.equal(process.pid);
  await release();
}

async function refusal(dataDir: string): Promise<Error> {
  try {
    await takeLock(dataDir);
  } catch (e) {
    return e as Error;
  }
  throw new Error('the lock was taken while its owner was to be refused');
}

const hasProc = fs.existsSync('/proc/self/stat');

describe('embedded database lock', function () {
  this.timeout(120_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-dblock-'));
  });

  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('exit', r));
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens at once a database whose previous owner was killed (SIGKILL)', async () => {
    await crashedHolder(dataDir, 'db');
    const db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      expect((await db.knex.raw('select 1 as one')).rows[0].one).to.equal(1);
      expect(readLockOwner(dataDir)!.pid, 'the record now names this process').to.equal(process.pid);
    } finally {
      await db.close();
    }
    const p = lockPaths(dataDir);
    expect([p.lock, p.owner, p.probe].filter((f) => fs.existsSync(f)), 'close leaves no lock, record or socket').to.deep.equal([]);
  });

  it('refuses while a live process has the database open, with a clear message naming it', async () => {
    const h = holder(dataDir, 'db');
    expect(await h.outcome).to.equal('holding');
    let e: Error | null = null;
    try {
      const db = await openDatabase({ databaseUrl: null, dataDir });
      await db.close();
    } catch (err) {
      e = err as Error;
    }
    expect(e).to.be.instanceOf(DatabaseLockedError);
    expect(e!.message).to.contain(`The embedded database in ${path.join(dataDir, 'db')} is in use by another process (pid ${h.proc.pid} on ${os.hostname()}`);
    expect(e!.message).to.contain('set DATABASE_URL');
    // the refusal took nothing away from the holder
    expect(readLockOwner(dataDir)!.pid).to.equal(h.proc.pid);
    await kill(h, 'SIGTERM');
    await takeLock(dataDir);
  });

  it('refuses a second owner in the same process', async () => {
    const release = await lockEmbeddedDatabase(dataDir, path.join(dataDir, 'db'));
    try {
      expect((await refusal(dataDir)).message).to.contain(`in use by another process (pid ${process.pid} `);
    } finally {
      await release();
    }
  });

  it('refuses a live owner whose socket answers, whatever its pid looks like', async () => {
    const h = holder(dataDir);
    expect(await h.outcome).to.equal('holding');
    rewriteOwner(dataDir, { pid: spawnSync('true').pid }); // a process that has exited
    expect((await refusal(dataDir)).message).to.contain('in use by another process');
  });

  it('takes over the lock of a dead owner by its pid alone (no socket)', async () => {
    await crashedHolder(dataDir);
    rewriteOwner(dataDir, { probe: false });
    await takeLock(dataDir);
  });

  it('takes over the lock of a dead owner whose pid now belongs to a live process (no socket)', async function () {
    if (!hasProc) this.skip(); // no process start times to tell a reused pid apart
    const dead = await crashedHolder(dataDir);
    expect(dead.startTime).to.be.a('string');
    // this test process is alive and was started at another time than the dead holder
    rewriteOwner(dataDir, { pid: process.pid, probe: false });
    await takeLock(dataDir);
  });

  it('takes over the lock of an owner in another pid namespace (a restarted container) whose socket is closed', async function () {
    const dead = await crashedHolder(dataDir);
    if (!dead.probe || !dead.bootId) this.skip(); // no Unix socket or no boot id here
    // its pid would mean another process here: the socket decides
    rewriteOwner(dataDir, { pidNs: 'pid:[1]', pid: process.pid });
    await takeLock(dataDir);
  });

  it('does not judge an owner in another pid namespace by its pid when it has no socket', async () => {
    await crashedHolder(dataDir);
    rewriteOwner(dataDir, { pidNs: 'pid:[1]', probe: false });
    expect((await refusal(dataDir)).message).to.contain('in use by another process');
  });

  it('two processes starting together after a crash: exactly one gets the database', async () => {
    await crashedHolder(dataDir);
    const a = holder(dataDir);
    const b = holder(dataDir);
    const outcomes = (await Promise.all([a.outcome, b.outcome])).sort();
    expect(outcomes[0]).to.equal('holding');
    expect(outcomes[1]).to.match(/^refused: .*is in use by another process \(pid \d+/);
  });

  it('does not take over a fresh lock recorded by a process on another host; a stale one it does', async () => {
    await crashedHolder(dataDir);
    rewriteOwner(dataDir, { hostname: `not-${os.hostname()}`, bootId: 'another-machine' });
    const e = await refusal(dataDir);
    expect(e).to.be.instanceOf(DatabaseLockedError);
    expect(e.message).to.contain(`on not-${os.hostname()}, another host`);
    // its pids mean nothing here: the lock's age decides, as before — once not refreshed for 15 s it is stale
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPaths(dataDir).lock, old, old);
    await takeLock(dataDir);
  });

  it('does not take over a lock that has no record of its own (an older version of the app holds it)', async () => {
    const dead = await crashedHolder(dataDir);
    // The live holder made its lock without a record; the record there is an earlier one.
    // (The new lock is made before the old one goes, so it cannot get the old one's inode number.)
    const lock = lockPaths(dataDir).lock;
    fs.mkdirSync(`${lock}.new`);
    fs.rmdirSync(lock);
    fs.renameSync(`${lock}.new`, lock);
    expect(readLockOwner(dataDir)!.pid).to.equal(dead.pid);
    const e = await refusal(dataDir);
    expect(e).to.be.instanceOf(DatabaseLockedError);
    expect(e.message).to.not.contain(`pid ${dead.pid}`);
  });
});
