'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The first n non-empty lines of an AmericasNLP dev file: <data>/es-<lang>/dev.<ext>. */
function readDevLines(data, lang, ext, n) {
  return fs
    .readFileSync(path.join(data, `es-${lang}`, `dev.${ext}`), 'utf8')
    .split(/\r?\n/)
    .filter(Boolean)
    .slice(0, n);
}

module.exports = { readDevLines };
