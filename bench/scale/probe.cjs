/**
 * Preloaded into the platform by the API throughput bench (`node -r ./bench/scale/probe.cjs …`), answering
 * over the IPC channel:
 * - 'pg-count' → `{ pgQueries }`: every query the process sent to Postgres so far (node-postgres
 *   `Client#query`: one round trip each; pg does not pipeline); 'pg-statements' → `{ pgStatements }`: the
 *   same counts by statement (first 90 characters).
 * - 'prof-start' / 'prof-stop' → `{ profile }`: a V8 CPU profile of the process between the two (the
 *   `--cpu-prof` format), so the bench profiles one load point rather than the start-up.
 * - 'cpu' → `{ cpuMicros }`: the process's CPU time so far (user + system, every thread), so the bench can say
 *   how much CPU one translation costs — steadier than req/s on a shared machine.
 */
'use strict';
const pg = require('pg');
const inspector = require('node:inspector');

let queries = 0;
const byStatement = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  queries++;
  const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '?');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
  byStatement.set(key, (byStatement.get(key) ?? 0) + 1);
  return query.apply(this, args);
};

let session = null;
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));

if (process.send) {
  process.on('message', (m) => {
    if (m === 'pg-count') process.send({ pgQueries: queries });
    else if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send({ cpuMicros: u.user + u.system });
    } else if (m === 'pg-statements') process.send({ pgStatements: Object.fromEntries(byStatement) });
    else if (m === 'prof-start') {
      session = new inspector.Session();
      session.connect();
      post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 1000 }))
        .then(() => post('Profiler.start'))
        .then(() => process.send({ profiling: true }));
    } else if (m === 'prof-stop' && session) {
      post('Profiler.stop').then((r) => {
        session.disconnect();
        session = null;
        process.send({ profile: r.profile });
      });
    }
  });
}
