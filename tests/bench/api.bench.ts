/**
 * The API benchmark (issue 4): the relay list under load, and the console's first load.
 *
 *   npm run bench:api                                   # 10,000 jobs, 50 clients for 30 s
 *   npm run bench:api -- --jobs 2000 --seconds 10       # a quick look
 *
 * The product runs as an operator runs it (`mediaplane server` in a process of its own, on its
 * embedded Postgres); the load comes from autocannon in another process on loopback, so its work
 * never counts against the server. Prints a table and writes tests/bench/results/api.md. A
 * benchmark, not a test: it exits 0 when a target is MISSED, non-zero only when it could not measure.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../../api/auth/passwords.ts';
import { TokensRepository } from '../../api/repositories/tokens.repository.ts';
import { TokensService } from '../../api/services/tokens.service.ts';
import { operations } from '../../openapi/paths/index.ts';
import { seedJobs } from './api/seed.ts';
import { consoleFirstLoad, relayListInteractive } from './api/console.ts';
import { describeMachine } from './engine/report.ts';
import { ControlPlane } from './engine/support/control-plane.ts';

interface Row {
  measure: string;
  target: string;
  product: string;
  reference: string;
  verdict: 'met' | 'MISSED';
}

function markdownTable(rows: Row[]): string {
  return ['| Measurement | Mediaplane | Detail | Target | Result |', '| --- | --- | --- | --- | --- |', ...rows.map((r) => `| ${r.measure} | ${r.product} | ${r.reference} | ${r.target} | ${r.verdict === 'met' ? 'PASS' : '**MISSED**'} |`)].join('\n');
}

const RESULTS_FILE = fileURLToPath(new URL('./results/api.md', import.meta.url));
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '30' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('npm run bench:api -- [--jobs 10000] [--connections 50] [--seconds 30]');
  process.exit(0);
}
const jobs = Number(values.jobs);
const connections = Number(values.connections);
const seconds = Number(values.seconds);

/** The list an operator asks for: a search, two filters, a sort and a page of 50. */
const LIST_QUERY = 'search=news&type=LIVE&outputTypes=udp,hls&sort=name&order=asc&page=2&size=50';

interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, token: string, durationSeconds: number): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [AUTOCANNON, '--json', '-c', String(connections), '-d', String(durationSeconds), '-H', `Authorization=Bearer ${token}`, url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; max: number };
    errors: number;
    non2xx: number;
  };
  return { requests: result.requests.total, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, errors: result.errors, non2xx: result.non2xx };
}

/**
 * The same load against Express 5 alone, serving the bytes the product answered (tests/bench/api/
 * bare-express.mjs): what an Express application routing this request costs on this machine, the reference
 * for the product's figures (the product reaches its operations without the router's walk).
 */
async function loadBareExpress(body: string, routes: number, durationSeconds: number): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-bare-express-'));
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, body);
  const child = spawn(process.execPath, [fileURLToPath(new URL('./api/bare-express.mjs', import.meta.url)), bodyFile, String(routes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('exit', (code) => reject(new Error(`bare Express exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/api/relays`;
    await load(url, 'none', 3);
    return await load(url, 'none', durationSeconds);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

function machineLine(): string {
  const m = describeMachine();
  return `${m.cores} cores (${m.cpuModel}), ${m.memory}, Node ${m.node}`;
}

const log = (line: string) => console.log(`[bench:api] ${line}`);
const plane = await ControlPlane.start(log);
const rows: Row[] = [];
try {
  const seeded = await seedJobs(plane.db, jobs, log);
  const admin = await plane.db.selectFrom('users').select(['id', 'username']).where('role', '=', 'ADMIN').orderBy('id').executeTakeFirstOrThrow();
  const { secret } = await new TokensService(new TokensRepository(plane.db)).create({ userId: admin.id } as never, 'bench');
  const base = `http://127.0.0.1:${plane.port}`;
  const url = `${base}/api/relays?${LIST_QUERY}`;

  const probe = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
  if (!probe.ok) throw new Error(`GET ${url} answered ${probe.status}: ${await probe.text()}`);
  const body = await probe.text();
  const page = JSON.parse(body) as { total: number; items: unknown[] };
  log(`${seeded} jobs stored; the benchmarked list matches ${page.total} of them and returns ${page.items.length} rows`);

  log('warming up (5 s)');
  await load(url, secret, 5);
  log(`${connections} clients for ${seconds} s`);
  const result = await load(url, secret, seconds);
  const failures = result.errors + result.non2xx;
  log(`the reference: Express 5 alone serving the same ${body.length} bytes, ${connections} clients for ${seconds} s`);
  const bare = await loadBareExpress(body, operations.length, seconds);
  rows.push(
    { measure: `Relay list p99 (${jobs.toLocaleString('en')} jobs, ${connections} clients)`, target: '< 25 ms', product: `${result.p99} ms`, reference: `p50 ${result.p50} ms, max ${result.max} ms; Express alone, same bytes: p99 ${bare.p99} ms, p50 ${bare.p50} ms`, verdict: result.p99 < 25 ? 'met' : 'MISSED' },
    { measure: 'Relay list throughput', target: '≥ 1,500 req/s', product: `${Math.round(result.rps).toLocaleString('en')} req/s`, reference: `${result.requests.toLocaleString('en')} requests, ${failures} failed; Express alone: ${Math.round(bare.rps).toLocaleString('en')} req/s`, verdict: result.rps >= 1500 && failures === 0 ? 'met' : 'MISSED' },
  );

  const firstLoad = consoleFirstLoad();
  rows.push({ measure: 'Console first load (JS, gzipped)', target: '≤ 350 KB', product: `${(firstLoad.gzipBytes / 1024).toFixed(1)} KB`, reference: `${firstLoad.files} files`, verdict: firstLoad.gzipBytes <= 350 * 1024 ? 'met' : 'MISSED' });

  const password = 'bench-password-1';
  await plane.db.insertInto('users').values({ username: 'bench', password_hash: await hashPassword(password), role: 'ADMIN', email: null, phone_number: null, permissions: JSON.stringify({}) }).execute();
  const interactive = await relayListInteractive(base, 'bench', password);
  rows.push({ measure: `Relay list interactive (${jobs.toLocaleString('en')} jobs)`, target: '< 1 s', product: `${interactive.medianMs} ms`, reference: `median of ${interactive.samples.length}: ${interactive.samples.join(', ')} ms`, verdict: interactive.medianMs < 1000 ? 'met' : 'MISSED' });
} finally {
  await plane.stop();
}

const table = markdownTable(rows);
console.log(`\n${table}`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `# API benchmark\n\nMachine: ${machineLine()} (${new Date().toISOString().slice(0, 10)})\n\nCommand: \`npm run bench:api -- --jobs ${jobs} --connections ${connections} --seconds ${seconds}\`\n\nThe query: \`GET /api/relays?${LIST_QUERY}\`\n\n${table}\n`,
);
log(`written to ${RESULTS_FILE}`);
