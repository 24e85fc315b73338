// Browser tests: Debian's Chromium driven by puppeteer against the built app. Two files at a time,
// each worker with its own apps, databases and browser: a test mostly waits on the page (load
// average 0.7-1.7 on two cores with one worker; the whole suite took 44 min, 12 min with two).
module.exports = {
  'node-option': ['import=tsx'],
  spec: process.env.SPEC ? process.env.SPEC.split(',') : ['web/**/*.e2e.ts', 'plugins/**/*.e2e.ts', 'core/**/*.e2e.ts'],
  require: ['core/testing/global-fixtures.ts'],
  parallel: true,
  jobs: 2,
  timeout: 90000,
  slow: 5000,
  reporter: 'spec',
  exit: true,
};
