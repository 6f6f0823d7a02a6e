/**
 * The dashboard benchmark (issue 5): what an open console's live dashboard costs the server.
 *
 *   npm run bench:dashboard                        # 0, 1 and 10 open dashboards, 30 s each
 *   npm run bench:dashboard -- --seconds 10 --consoles 5
 *
 * The product runs as an operator runs it (`mediaplane server` in a process of its own, on its
 * embedded Postgres); the dashboards are held open by this process as a console holds them
 * (`GET /api/dashboard/stream`, Server-Sent Events), so reading them never counts against the
 * server. The server's CPU (all its threads, /proc/<pid>/stat) is read over the same window with
 * no dashboard open, with one, and with several. Prints a table and writes
 * tests/bench/results/dashboard.md. A benchmark, not a test: it exits 0 when a target is MISSED.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { TokensRepository } from '../../api/repositories/tokens.repository.ts';
import { TokensService } from '../../api/services/tokens.service.ts';
import { describeMachine } from './engine/report.ts';
import { ControlPlane } from './engine/support/control-plane.ts';
import { sampleProcess, sleep } from './engine/support/processes.ts';

const RESULTS_FILE = fileURLToPath(new URL('./results/dashboard.md', import.meta.url));
const TARGET_PERCENT = 1;

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    consoles: { type: 'string', default: '10' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('npm run bench:dashboard -- [--seconds 30] [--consoles 10]');
  process.exit(0);
}
const seconds = Number(values.seconds);
const many = Number(values.consoles);
const log = (line: string) => console.log(`[bench:dashboard] ${line}`);

/** An open dashboard: the stream of a console, counting the status events it receives. */
interface OpenDashboard {
  events: number;
  close: () => void;
}

async function openDashboard(url: string, token: string): Promise<OpenDashboard> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  const dashboard: OpenDashboard = { events: 0, close: () => controller.abort() };
  let first: () => void = () => {};
  const firstEvent = new Promise<void>((resolve) => (first = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const found = decoder.decode(chunk, { stream: true }).match(/^event: status$/gm)?.length ?? 0;
        if (found) {
          dashboard.events += found;
          first();
        }
      }
    } catch {
      // closed by the benchmark
    }
  })();
  await firstEvent;
  return dashboard;
}

interface Window {
  consoles: number;
  cpuPercent: number;
  events: number;
}

/** The server's CPU over `seconds` with `count` dashboards open (after 3 s of settling). */
async function measure(plane: ControlPlane, url: string, token: string, count: number): Promise<Window> {
  const open = await Promise.all(Array.from({ length: count }, () => openDashboard(url, token)));
  try {
    await sleep(3000);
    const before = sampleProcess(plane.pid);
    const eventsBefore = open.reduce((sum, d) => sum + d.events, 0);
    await sleep(seconds * 1000);
    const after = sampleProcess(plane.pid);
    const events = open.reduce((sum, d) => sum + d.events, 0) - eventsBefore;
    const cpuPercent = ((after.cpuSeconds - before.cpuSeconds) / ((after.at - before.at) / 1000)) * 100;
    log(`${count} open: server ${cpuPercent.toFixed(2)} % of a core, ${events} status events delivered`);
    return { consoles: count, cpuPercent, events };
  } finally {
    for (const dashboard of open) dashboard.close();
    await sleep(500);
  }
}

const plane = await ControlPlane.start(log);
let windows: Window[];
try {
  const admin = await plane.db.selectFrom('users').select(['id']).where('role', '=', 'ADMIN').orderBy('id').executeTakeFirstOrThrow();
  const { secret } = await new TokensService(new TokensRepository(plane.db)).create({ userId: admin.id } as never, 'bench');
  const url = `http://127.0.0.1:${plane.port}/api/dashboard/stream`;
  await sleep(15_000); // the start-up's own work (module loading, JIT, the first sweeps) settles
  windows = [];
  // The idle server is measured before and after (its own periodic work is the noise floor).
  for (const count of [0, 1, many, 0]) windows.push(await measure(plane, url, secret, count));
} finally {
  await plane.stop();
}

const [idleBefore, one, several, idleAfter] = windows;
const idle = { ...idleBefore, cpuPercent: (idleBefore.cpuPercent + idleAfter.cpuPercent) / 2 };
const first = one.cpuPercent - idle.cpuPercent;
const each = (several.cpuPercent - idle.cpuPercent) / many;
const next = (several.cpuPercent - one.cpuPercent) / (many - 1);
const verdict = (value: number) => (value < TARGET_PERCENT ? 'PASS' : '**MISSED**');
const table = [
  '| Measurement | Mediaplane | Detail | Target | Result |',
  '| --- | --- | --- | --- | --- |',
  `| Server CPU, no dashboard open | ${idle.cpuPercent.toFixed(2)} % | the baseline (node heartbeat, reconciler sweep, alarm monitor): ${idleBefore.cpuPercent.toFixed(2)} % before, ${idleAfter.cpuPercent.toFixed(2)} % after | — | info |`,
  `| The first open dashboard (starts the sampler) | +${first.toFixed(2)} % | ${one.cpuPercent.toFixed(2)} % in all; ${one.events} status events in ${seconds} s | < ${TARGET_PERCENT} % | ${verdict(first)} |`,
  `| Each open dashboard, ${many} open | +${each.toFixed(2)} % | ${several.cpuPercent.toFixed(2)} % in all; each one after the first +${next.toFixed(2)} %; ${several.events} status events in ${seconds} s | < ${TARGET_PERCENT} % | ${verdict(each)} |`,
].join('\n');
console.log(`\n${table}`);
const m = describeMachine();
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `# Dashboard benchmark\n\nMachine: ${m.cores} cores (${m.cpuModel}), ${m.memory}, Node ${m.node} (${new Date().toISOString().slice(0, 10)})\n\nCommand: \`npm run bench:dashboard -- --seconds ${seconds} --consoles ${many}\`\n\n${table}\n\nMethod: a real \`mediaplane server\`; each dashboard is an open \`GET /api/dashboard/stream\` held by the benchmark's process as a console holds it. The server's own CPU (all threads, /proc/<pid>/stat) over ${seconds} s windows after 3 s of settling; one sampler serves every open dashboard (api/services/system-sampler.ts), so the first console pays for sampling and the others for their share of the events.\n`,
);
log(`written to ${RESULTS_FILE}`);
