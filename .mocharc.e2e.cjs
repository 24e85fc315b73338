// Browser tests: Debian's Chromium driven by puppeteer against the built app.
module.exports = {
  'node-option': ['import=tsx'],
  spec: process.env.SPEC ? process.env.SPEC.split(',') : ['web/**/*.e2e.ts', 'plugins/**/*.e2e.ts', 'core/**/*.e2e.ts'],
  require: ['core/testing/global-fixtures.ts'],
  parallel: false,
  timeout: 90000,
  slow: 5000,
  reporter: 'spec',
  exit: true,
};
