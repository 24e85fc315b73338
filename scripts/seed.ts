/** npm run seed: loads seeds/ for every enabled plugin, idempotently (a second run adds nothing). */
import { withApp } from './cli.ts';

await withApp(async (app) => {
  const seeded = await app.seed({ bar: process.stdout.isTTY ?? false });
  console.log(seeded.length ? `Seeded: ${seeded.join(', ')}` : 'No plugin has seeds.');
});
process.exit(0);
