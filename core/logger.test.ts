import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './config.ts';

/**
 * The app's log (core/logger.ts) leaves stdout in batches: a lone line still leaves on its own
 * (the periodic flush) while the process goes on, and what waits when the process exits is written
 * before it ends.
 */
describe('logger: batched writes to stdout', function () {
  this.timeout(30_000);

  it('writes a lone line while the process runs, and every waiting line at exit', async () => {
    const logger = pathToFileURL(path.join(ROOT, 'core', 'logger.ts')).href;
    // the child logs one line, then waits (stdin open) until told to log 2,000 more and exit at once
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const log = createLogger({ logLevel: 'info' });
      log.info('first line');
      process.stdin.once('data', () => {
        for (let i = 0; i < 2000; i++) log.info({ i }, 'burst');
        process.exit(0);
      });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // the lone line arrives although the child neither logs more nor exits (it waits for stdin)
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('"msg":"first line"')) resolve();
      });
      void exited.then((code) => reject(new Error(`the child exited (${code}) before its first line arrived: ${err}`)));
    });
    child.stdin!.write('go\n');
    expect(await exited, err).to.equal(0);
    const burst = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'burst')
      .map((l) => l.i);
    expect(burst).to.have.length(2000);
    expect(burst).to.deep.equal([...Array(2000).keys()]);
  });
});
