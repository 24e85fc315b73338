/**
 * npm run storage:migrate: copies the uploads on local disk (DATA_DIR/uploads) into the configured
 * S3-compatible bucket (STORAGE=s3, S3_*), under the same keys, so that every stored /uploads/<key>
 * URL keeps working. Idempotent: an object already in the bucket with the same size is skipped, so
 * an interrupted run can simply be started again. Local files are left in place (delete them once
 * the app runs on the bucket).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { loadConfig, ConfigError } from '../core/config.ts';
import { LocalDiskStorage, servedType } from '../core/storage.ts';
import { S3Storage } from '../core/storage-s3.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  if (config.storage?.driver !== 's3' || !config.storage.s3) {
    console.error('storage:migrate copies local uploads into a bucket: set STORAGE=s3 and S3_BUCKET (and S3_ENDPOINT, credentials…) first.');
    return 1;
  }
  const root = path.join(config.dataDir, 'uploads');
  if (!fs.existsSync(root)) {
    console.log(`Nothing to migrate: ${root} does not exist.`);
    return 0;
  }
  const local = new LocalDiskStorage(root);
  const bucket = new S3Storage({ ...config.storage.s3 });
  const files: { key: string; size: number }[] = [];
  for (const d of await fsp.readdir(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for await (const f of local.list(d.name)) {
      const st = await fsp.stat(path.join(root, f.key)).catch(() => null);
      if (st) files.push({ key: f.key, size: st.size });
    }
  }
  const bar = new cliProgress.SingleBar({ format: 'Uploads to bucket [{bar}] {value}/{total} files | {copied} copied, {skipped} already there', noTTYOutput: true, notTTYSchedule: 2000 }, cliProgress.Presets.shades_classic);
  let copied = 0;
  let skipped = 0;
  const failed: string[] = [];
  bar.start(files.length, 0, { copied, skipped });
  try {
    for (const f of files) {
      try {
        const there = await bucket.head(f.key);
        if (there && there.size === f.size) skipped++;
        else {
          await bucket.copyFromFile(f.key, path.join(root, f.key), servedType(f.key));
          copied++;
        }
      } catch (e) {
        failed.push(`${f.key}: ${(e as Error).message}`);
      }
      bar.increment(1, { copied, skipped });
    }
  } finally {
    bar.stop();
    bucket.close();
  }
  console.log(`${files.length} local file(s): ${copied} copied, ${skipped} already in bucket ${config.storage.s3.bucket}, ${failed.length} failed.`);
  for (const f of failed) console.error(`  failed: ${f}`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof ConfigError ? `storage:migrate cannot start: ${e.message}` : e);
    process.exit(1);
  },
);
