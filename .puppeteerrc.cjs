// Debian's Chromium is used (/usr/bin/chromium); puppeteer's own browser download cannot work here.
module.exports = { skipDownload: true };
