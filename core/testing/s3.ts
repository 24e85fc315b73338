/**
 * An S3-compatible server for tests: s3rver (a Node implementation of the S3 HTTP API) on a free
 * loopback port, its objects in a temporary folder, one bucket created for the caller.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** the `storage` config section for an app using this bucket */
  storageConfig(extra?: { mediaPublicUrl?: string | null }): { driver: 's3'; s3: Record<string, unknown>; mediaPublicUrl: string | null };
  /** the same as environment variables, for child processes and scripts */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export const TEST_S3_KEY = 'S3RVER';

export async function startTestS3(): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-s3-'));
  const bucket = `curio-test-${crypto.randomBytes(4).toString('hex')}`;
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const addr = await server.run();
  const endpoint = `http://127.0.0.1:${addr.port}`;
  return {
    endpoint,
    bucket,
    storageConfig: (extra = {}) => ({
      driver: 's3',
      s3: { endpoint, bucket, region: 'us-east-1', accessKeyId: TEST_S3_KEY, secretAccessKey: TEST_S3_KEY, forcePathStyle: true },
      mediaPublicUrl: extra.mediaPublicUrl ?? null,
    }),
    env: () => ({
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: TEST_S3_KEY,
      S3_SECRET_ACCESS_KEY: TEST_S3_KEY,
      S3_FORCE_PATH_STYLE: '1',
    }),
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
