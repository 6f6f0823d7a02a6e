import { sql } from 'kysely';
import type { Db } from '../../../api/db/database.ts';
import { JobInput } from '../../../openapi/schemas/jobs.ts';

const WORDS = ['news', 'sport', 'movies', 'kids', 'music', 'docs', 'weather', 'shop'];
const REGIONS = ['north', 'south', 'east', 'west', 'central'];
const OUTPUT_SETS: ('udp' | 'hls' | 'srt' | 'rtmp')[][] = [['udp'], ['hls'], ['udp', 'hls'], ['srt'], ['rtmp', 'hls']];
const STATES = ['stopped', 'running', 'running', 'failed', 'starting'];

function outputFor(type: 'udp' | 'hls' | 'srt' | 'rtmp', i: number) {
  switch (type) {
    case 'udp':
      return { type, uri: `udp://239.1.${(i >> 8) & 255}.${i & 255}:5000` };
    case 'srt':
      return { type, uri: `srt://10.0.0.2:${9000 + (i % 1000)}` };
    case 'rtmp':
      return { type, uri: `rtmp://10.0.0.3/live/ch${i}` };
    case 'hls':
      return { type, uri: `live/ch${i}` };
  }
}

/**
 * Stores `count` relays (plus a tenth as many encodings) as the service would, in batches, with a
 * status row each as if nodes had reported them. All are switched off: the benchmark measures the
 * API, not the engine.
 */
export async function seedJobs(db: Db, count: number, log: (line: string) => void): Promise<number> {
  const started = Date.now();
  const batch = 500;
  const total = count + Math.floor(count / 10);
  for (let from = 0; from < total; from += batch) {
    const rows = [];
    for (let i = from; i < Math.min(total, from + batch); i += 1) {
      const kind = i < count ? 'relay' : 'encoding';
      const outputs = OUTPUT_SETS[i % OUTPUT_SETS.length].map((type) => outputFor(type, i));
      const config = JobInput.parse({
        name: `${WORDS[i % WORDS.length]} ${REGIONS[Math.floor(i / WORDS.length) % REGIONS.length]} ${String(i).padStart(5, '0')}`,
        videoType: i % 7 === 0 ? 'VOD' : 'LIVE',
        input: { type: 'uri', uri: `udp://239.0.${(i >> 8) & 255}.${i & 255}:1234` },
        outputs,
      });
      rows.push({
        kind,
        name: config.name,
        video_type: config.videoType,
        active: false,
        input_type: config.input.type,
        output_types: config.outputs.map((o) => o.type),
        config: JSON.stringify(config),
        created_by_name: 'admin',
        desired_actor: JSON.stringify({ kind: 'user', userId: 0, username: 'bench' }),
      } as const);
    }
    const inserted = await db.insertInto('jobs').values(rows).returning('id').execute();
    await db
      .insertInto('job_status')
      .values(inserted.map(({ id }, k) => ({ job_id: id, node_id: null, state: STATES[(from + k) % STATES.length], restarts: (from + k) % 4, cpu_percent: ((from + k) % 90) / 3, rss_bytes: 40_000_000 + ((from + k) % 50) * 1_000_000 })))
      .execute();
  }
  await sql`ANALYZE jobs`.execute(db);
  await sql`ANALYZE job_status`.execute(db);
  log(`stored ${total} jobs (${count} relays) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return total;
}
