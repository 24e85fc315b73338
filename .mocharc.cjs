// API and unit tests: real server, real database, real HTTP. Parallel by database-per-worker.
module.exports = {
  'node-option': ['import=tsx'],
  // SPEC='plugins/museums/**/*.test.ts' npx mocha   runs just those files
  spec: process.env.SPEC ? process.env.SPEC.split(',') : ['core/**/*.test.ts', 'plugins/**/*.test.ts', 'scripts/**/*.test.ts', 'deploy/**/*.test.ts'],
  require: ['core/testing/global-fixtures.ts', 'core/testing/root-hooks.ts'],
  parallel: true,
  jobs: 2,
  timeout: 60000,
  slow: 1000,
  reporter: 'spec',
  exit: true,
};
