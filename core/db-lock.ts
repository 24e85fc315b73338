/**
 * The single-process lock of the embedded (PGlite) database directory.
 *
 * `DATA_DIR/db.lock` is a proper-lockfile lock (a directory made atomically with mkdir) whose
 * mtime its owner refreshes every 5 s; a lock not refreshed for 15 s is stale and anyone may take
 * it. That alone made a restart right after a crash (SIGKILL, OOM kill) wait up to 15 s, so the
 * owner also records who it is in `DATA_DIR/db.lock.owner` (pid, hostname, boot id, pid
 * namespace, process start time from /proc/<pid>/stat, the lock directory's inode, a token) and
 * listens on a Unix socket, `DATA_DIR/db.lock.sock`, which the kernel closes when the process
 * dies however it dies. When the lock is held, the record decides (ownerState):
 * - gone: on the same kernel its socket refuses connections (this covers a container restarted
 *   with a new pid namespace); or, on the same host and pid namespace, its pid is not alive
 *   (`kill(pid, 0)` answers ESRCH), is a zombie, or now belongs to a process started at another
 *   time (pid reuse). Its lock is taken over at once.
 * - alive: its socket answers, or its pid runs with the recorded start time (EPERM counts as
 *   running). Refused with a clear message, even if its lock looks stale (a blocked event loop).
 * - unknown: another host (a shared volume: its pids mean nothing here), no record or one left by
 *   an earlier lock, no socket and no /proc. The lock's age decides, as before: refused until it
 *   has not been refreshed for 15 s.
 *
 * Acquisition (lock, read the record, take over, write the record) happens under a second, short
 * lock (`DATA_DIR/db.lock.guard`, held for milliseconds) so that two processes starting together
 * after a crash never both take the dead owner's lock over, and the record always belongs to the
 * lock's holder when someone else reads it.
 *
 * Limits: without /proc and the socket (not Linux, or a filesystem without Unix sockets) a running
 * pid cannot be told from a reused one, so an owner whose pid runs falls back to the lock's age —
 * a delay, never two owners. The record is matched to its lock by inode number, which a filesystem
 * may reuse; that only matters if the holder crashed before writing its record (then it is dead
 * too) or is an older version of the app that writes none. Machines are told apart by hostname and
 * boot id.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DatabaseLockedError extends Error {}

/** What the holder of the lock writes next to it. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** /proc/sys/kernel/random/boot_id: tells a reboot or another machine with the same hostname apart */
  bootId: string | null;
  /** field 22 of /proc/<pid>/stat (clock ticks since boot): tells a reused pid apart */
  startTime: string | null;
  /** /proc/self/ns/pid: pids of another pid namespace (another container) mean nothing here */
  pidNs: string | null;
  /** whether the owner listens on the probe socket (`db.lock.sock`) */
  probe: boolean;
  /** inode of the lock directory this record was written for: a record left by an earlier lock is not this lock's */
  lockIno: number;
  /** ISO time the lock was taken (for people reading the message) */
  since: string;
  token: string;
}

const STALE_MS = 15_000;
const UPDATE_MS = 5_000;

export function lockPaths(dataDir: string) {
  return {
    lock: path.join(dataDir, 'db.lock'),
    owner: path.join(dataDir, 'db.lock.owner'),
    guard: path.join(dataDir, 'db.lock.guard'),
    probe: path.join(dataDir, 'db.lock.sock'),
  };
}

function readTrimmed(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** State and start time of a process from /proc/<pid>/stat, or null (no /proc, no such process). */
function procStat(pid: number): { state: string; startTime: string } | null {
  const stat = readTrimmed(`/proc/${pid}/stat`);
  if (!stat) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); starttime is field 22.
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

function bootId(): string | null {
  return readTrimmed('/proc/sys/kernel/random/boot_id');
}

function pidNs(): string | null {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/**
 * The probe socket: a Unix socket the owner listens on while it holds the lock. The kernel closes
 * it when the process dies however it dies, so on the same kernel a refused connection proves the
 * owner gone, across pid namespaces (a restarted container) too. Null where it cannot listen
 * (Windows, a path too long for a socket, a filesystem without sockets): then pids alone decide.
 */
async function listenProbe(file: string): Promise<net.Server | null> {
  if (process.platform === 'win32' || Buffer.byteLength(file) > 100) return null;
  fs.rmSync(file, { force: true }); // a dead owner's (we hold the lock)
  const server = net.createServer((c) => c.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch {
    return null;
  }
  server.on('error', () => {});
  server.unref();
  // Only a socket others can reach proves anything: check this filesystem really serves it.
  if ((await knock(file)) !== 'accepted') {
    server.close();
    return null;
  }
  return server;
}

/** 'refused' only when nothing listens on an existing socket; a missing file proves nothing. */
function knock(file: string): Promise<'refused' | 'accepted' | 'unknown'> {
  return new Promise((resolve) => {
    const c = net.connect(file);
    const done = (r: 'refused' | 'accepted' | 'unknown') => {
      clearTimeout(timer);
      c.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done('unknown'), 2000);
    c.once('connect', () => done('accepted'));
    c.once('error', (e: any) => done(e.code === 'ECONNREFUSED' ? 'refused' : 'unknown'));
  });
}

function lockIno(lock: string): number | null {
  try {
    return fs.statSync(lock).ino;
  } catch (e: any) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
}

function ownRecord(lock: string, probe: boolean): LockOwner {
  return {
    pidNs: pidNs(),
    probe,
    pid: process.pid,
    lockIno: fs.statSync(lock).ino,
    hostname: os.hostname(),
    bootId: bootId(),
    startTime: procStat(process.pid)?.startTime ?? null,
    since: new Date().toISOString(),
    token: crypto.randomBytes(12).toString('hex'),
  };
}

export function readLockOwner(dataDir: string): LockOwner | null {
  const text = readTrimmed(lockPaths(dataDir).owner);
  if (!text) return null;
  try {
    const o = JSON.parse(text);
    if (!o || !Number.isSafeInteger(o.pid) || o.pid <= 0 || typeof o.hostname !== 'string' || typeof o.token !== 'string' || typeof o.lockIno !== 'number') return null;
    return o as LockOwner;
  } catch {
    return null;
  }
}

/**
 * Whether the recorded owner still runs. 'gone' only when certain: on the same kernel (boot id)
 * its probe socket refuses connections; or on the same host and pid namespace its pid is not
 * alive, a zombie, or a process started at another time. 'alive' when its probe socket answers, or
 * its pid runs with the recorded start time. 'unknown' otherwise (another host, another pid
 * namespace without a probe socket, no /proc to tell a reused pid apart).
 */
export async function ownerState(owner: LockOwner, probeFile: string): Promise<'gone' | 'alive' | 'unknown'> {
  const here = bootId();
  if (owner.probe && owner.bootId && owner.bootId === here) {
    const r = await knock(probeFile);
    if (r === 'refused') return 'gone';
    if (r === 'accepted') return 'alive';
  }
  if (owner.hostname !== os.hostname()) return 'unknown';
  if (owner.bootId && here && owner.bootId !== here) return 'unknown'; // another machine (or a reboot: then the lock is stale anyway)
  const ns = pidNs();
  if ((owner.pidNs ?? null) !== ns) return 'unknown';
  try {
    process.kill(owner.pid, 0);
  } catch (e: any) {
    if (e.code === 'ESRCH') return 'gone';
    if (e.code !== 'EPERM') return 'unknown'; // EPERM: it exists and belongs to another user
  }
  const now = procStat(owner.pid);
  if (!now || !owner.startTime) return 'unknown';
  if (now.state === 'Z' || now.state === 'X') return 'gone'; // killed, not reaped yet
  return now.startTime === owner.startTime ? 'alive' : 'gone';
}

/** The record of the lock there is now, or null (no lock, no record, or one left by an earlier lock). */
function currentOwner(dataDir: string): LockOwner | null {
  const found = readLockOwner(dataDir);
  return found && found.lockIno === lockIno(lockPaths(dataDir).lock) ? found : null;
}

function writeOwner(file: string, owner: LockOwner) {
  const tmp = `${file}.${process.pid}.${owner.token}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(owner) + '\n');
  fs.renameSync(tmp, file); // readers see the old record or the new one, never half of one
}

function lockedError(dbDir: string, owner: LockOwner | null): DatabaseLockedError {
  const who = owner ? ` (pid ${owner.pid} on ${owner.hostname}${owner.hostname === os.hostname() ? '' : ', another host'}, since ${owner.since})` : '';
  return new DatabaseLockedError(
    `The embedded database in ${dbDir} is in use by another process${who} (is the app running?). ` +
      'Stop it first, or set DATABASE_URL to use a PostgreSQL server that many processes can share.',
  );
}

/**
 * Takes the lock of the embedded database `dbDir` (inside `dataDir`) for this process, taking over
 * the lock of an owner that is gone. Answers the function that releases it; throws
 * DatabaseLockedError while another live process holds it.
 */
export async function lockEmbeddedDatabase(dataDir: string, dbDir: string): Promise<() => Promise<void>> {
  const p = lockPaths(dataDir);
  fs.mkdirSync(dbDir, { recursive: true }); // proper-lockfile resolves it (realpath)
  const lockOptions = { lockfilePath: p.lock, stale: STALE_MS, update: UPDATE_MS };
  let releaseGuard: () => Promise<void>;
  try {
    // proper-lockfile keys its locks by the file argument, so the guard needs its own (it need not exist).
    releaseGuard = await lockfile.lock(p.guard, {
      realpath: false,
      lockfilePath: p.guard,
      stale: 5000,
      update: 2500,
      // held for milliseconds; left behind only by a crash in the middle of acquiring: wait for it to go stale
      retries: { retries: 50, minTimeout: 25, maxTimeout: 150, factor: 1.3 },
    });
  } catch (e: any) {
    if (e.code === 'ELOCKED') throw lockedError(dbDir, currentOwner(dataDir));
    throw e;
  }
  try {
    const ino = lockIno(p.lock);
    if (ino !== null) {
      // The record must be the one written for this very lock: one left by an earlier holder (a
      // crash between taking the lock and writing the record, or an older version of the app
      // holding it) says nothing about the current holder.
      const found = readLockOwner(dataDir);
      const owner = found && found.lockIno === ino ? found : null;
      const state = owner ? await ownerState(owner, p.probe) : 'unknown';
      // A live owner is refused even when its lock looks stale (an event loop blocked for 15 s).
      if (state === 'alive') throw lockedError(dbDir, owner);
      // A gone owner (crashed, killed) leaves its lock to us. Nobody else can be doing this now
      // (we hold the guard), so the lock removed is the dead owner's.
      if (state === 'gone') fs.rmSync(p.lock, { recursive: true, force: true });
      // Unknown: proper-lockfile decides by the lock's age (taken over once not refreshed for 15 s).
    }
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(dbDir, lockOptions);
    } catch (e: any) {
      if (e.code !== 'ELOCKED') throw e;
      throw lockedError(dbDir, currentOwner(dataDir));
    }
    let probe: net.Server | null = null;
    let me: LockOwner;
    try {
      probe = await listenProbe(p.probe);
      me = ownRecord(p.lock, probe !== null);
      writeOwner(p.owner, me);
    } catch (e) {
      probe?.close();
      await release().catch(() => {});
      throw e;
    }
    return async () => {
      // Remove the probe and the record first (only if it is still ours), then the lock: the other
      // order could remove those of a process that takes the lock in between.
      if (probe) {
        await new Promise((r) => probe!.close(r));
        fs.rmSync(p.probe, { force: true });
      }
      if (readLockOwner(dataDir)?.token === me.token) fs.rmSync(p.owner, { force: true });
      await release();
    };
  } finally {
    await releaseGuard().catch(() => {});
  }
}
