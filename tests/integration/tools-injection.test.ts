import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { isHost, toolUrlProblem } from '../../openapi/schemas/tools.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * What a user types into a tool never reaches a program as anything but a plain host or URL.
 * ping, mtr and ffprobe are wrapped (first on PATH) by scripts that write down the argv they were
 * started with, then run the real program: every payload below is refused with a 400 naming the
 * field, and the only processes that ran are those of the valid requests at the end.
 */

const PAYLOADS: string[] = [
  // Options.
  '-c', '-f', '--help', '-i', '--raw', '-w 1', '-', '--', '-127.0.0.1', '-h 127.0.0.1', '-oProxyCommand=id', '-protocol_whitelist', '-dump',
  '-v', '--report', '-4', '-I eth0', '--interval=0.001', '-ffile:/etc/passwd', '-example.com',
  // Shell.
  '127.0.0.1; id', '127.0.0.1;id', '127.0.0.1 && id', '127.0.0.1&&id', '127.0.0.1 | id', '127.0.0.1|id', '127.0.0.1 || id', '$(id)', '127.0.0.1$(id)', '`id`',
  '127.0.0.1`id`', '${IFS}id', '127.0.0.1>out', '127.0.0.1<in', "127.0.0.1'", '127.0.0.1"', '127.0.0.1\\', '*', '?', '~root', '127.0.0.1 &', '!!', '#', '(id)',
  '{id,}', 'a,b', "$'\\x2d'c", '127.0.0.1%0aid',
  // Newlines, control characters, spaces.
  '127.0.0.1\nid', '127.0.0.1\rid', '127.0.0.1\r\nid', '127.0.0.1\tid', '127.0.0.1\u0000id', '\n', ' 127.0.0.1', '127.0.0.1 ', ' ', '', '127.0.0.1\u001b[31m',
  '127.0.0.1\u007f', '\u000b127.0.0.1', '127.0.0.1\u0085',
  // Files and ffmpeg's local or nesting protocols.
  'file:///etc/passwd', 'file:/etc/passwd', '/etc/passwd', '../../etc/passwd', 'concat:a.ts|b.ts', 'subfile,,start,0,end,1,,:/etc/passwd', 'data:text/plain,hello', 'pipe:0',
  'pipe:', 'fd:0', 'tcp://127.0.0.1:1', 'ftp://127.0.0.1/x', 'gopher://127.0.0.1/x', 'unix:/tmp/sock', 'tee:file:x', 'crypto:file:x', 'async:file:x', 'cache:file:x',
  'hls+file:///x.m3u8', 'lavfi:testsrc', 'sftp://127.0.0.1/x', 'javascript:alert(1)', 'FILE:///etc/passwd', 'File://localhost/etc/passwd', 'concat:http://127.0.0.1/a|file:/etc/passwd',
  // URLs carrying shell, options, control characters or no host.
  'http://127.0.0.1/$(id)', 'http://127.0.0.1/`id`', 'http://127.0.0.1/;id', 'http://127.0.0.1/|id', 'http://-oProxy/', 'udp://-i:1234', 'rtmp://127.0.0.1/app -f',
  'http://127.0.0.1:80|file:///etc/passwd', 'http://', 'udp://', 'srt://:9000?mode=listener', 'http://[::1%eth0]/', 'http://127.0.0.1/a b', 'udp://127.0.0.1:5000\nid',
  'http://127.0.0.1/\u0000', 'https://127.0.0.1/${PATH}', 'http://127.0.0.1/<script>', "rtsp://127.0.0.1/'x'",
  // Unicode tricks: lookalikes, invisible and direction characters, fullwidth forms.
  '\uff11\uff12\uff17.0.0.1', '\uff46ile:///etc/passwd', 'exa\u200bmple.com', '\u202eexample.com', 'ex\u0430mple.com', '127.0.0.1\u2028id', '\u00a0127.0.0.1', '\uff0dc', '\u2212c',
  'ex\u00e4mple.com', 'http://ex\u0430mple.com/', 'http://127.0.0.1/\u202e', '\ufeff127.0.0.1', '127\u30020\u30020\u30021', 'http\uff1a//127.0.0.1/',
  // Not a host.
  `${'a'.repeat(64)}.example.com`, `${'a.'.repeat(130)}com`, '127.0.0.1:80', 'example..com', '.example.com', 'example-.com', 'exa_mple.com', '[::1]', '::1%lo',
];

const TOOLS = [
  { path: 'ping', field: 'address', body: (value: string) => ({ address: value, count: 1 }) },
  { path: 'mtr', field: 'host', body: (value: string) => ({ host: value, count: 1, noDns: true }) },
  { path: 'keyframe', field: 'uri', body: (value: string) => ({ uri: value, intervalCount: 1 }) },
  { path: 'mediachecker', field: 'uri', body: (value: string) => ({ uri: value }) },
] as const;

let app: TestApp;
let admin: string;
let dir: string;
let argvLog: string;
const originalPath = process.env.PATH;

/** The runs the wrappers wrote down: program and argv. */
function runs(): Array<{ program: string; argv: string[] }> {
  if (!existsSync(argvLog)) return [];
  const fields = readFileSync(argvLog, 'utf8').split('\0');
  const found: Array<{ program: string; argv: string[] }> = [];
  for (const field of fields) {
    if (field.startsWith('RUN:')) found.push({ program: field.slice(4), argv: [] });
    else if (field !== 'END' && field !== '' && found.length) found.at(-1)?.argv.push(field);
  }
  return found;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-tools-argv-'));
  argvLog = path.join(dir, 'argv.log');
  for (const program of ['ping', 'mtr', 'ffprobe']) {
    const real = execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
    const wrapper = path.join(dir, program);
    writeFileSync(wrapper, `#!/bin/sh\n{ printf 'RUN:%s\\0' '${program}'; for a in "$@"; do printf '%s\\0' "$a"; done; printf 'END\\0'; } >> '${argvLog}'\nexec '${real}' "$@"\n`);
    chmodSync(wrapper, 0o755);
  }
  process.env.PATH = `${dir}${path.delimiter}${originalPath}`;
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
}, 120_000);

afterAll(async () => {
  process.env.PATH = originalPath;
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('injection payloads to every tool', () => {
  it(`has more than 100 distinct payloads`, () => {
    expect(new Set(PAYLOADS).size).toBe(PAYLOADS.length);
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
  });

  for (const tool of TOOLS) {
    it(`POST /api/tools/${tool.path} refuses every one with a 400 naming body.${tool.field}`, async () => {
      const wrong: string[] = [];
      for (const payload of PAYLOADS) {
        const response = await app.request(`/api/tools/${tool.path}`, { method: 'POST', cookie: admin, json: tool.body(payload) });
        const body = (await response.json()) as Schemas['Error'];
        const named = response.status === 400 && body.code === 'VALIDATION_FAILED' && body.message.startsWith(`body.${tool.field}: `) && body.details?.some((d) => d.path === `body.${tool.field}`);
        if (!named) wrong.push(`${JSON.stringify(payload)} -> ${response.status} ${body.message}`);
      }
      expect(wrong).toEqual([]);
      expect(runs()).toEqual([]);
    });
  }

  it('refuses a token with spaces or control characters, naming body.token', async () => {
    for (const token of ['a b', 'a\nb', 'a\u0000b', 'a\rb', 'a\tb', '\u202eabc', 'x'.repeat(501)]) {
      for (const tool of ['keyframe', 'mediachecker']) {
        const response = await app.request(`/api/tools/${tool}`, { method: 'POST', cookie: admin, json: { uri: 'http://127.0.0.1/x.ts', tokenRequired: true, token } });
        expect(response.status).toBe(400);
        expect(((await response.json()) as Schemas['Error']).details?.map((d) => d.path)).toContain('body.token');
      }
    }
    expect(runs()).toEqual([]);
  });

  it('runs the valid requests with the user\'s value as one argument, after -- or -i', async () => {
    const port = await freePort();
    const source = `http://127.0.0.1:${port}/source.ts?a=1&b=2`;
    for (const [tool, body] of [
      ['ping', { address: '127.0.0.1', count: 1 }],
      ['mtr', { host: '127.0.0.1', count: 1, noDns: true }],
      ['keyframe', { uri: source, intervalCount: 1, tokenRequired: true, token: 'st=1~exp=2;$(id)' }],
      ['mediachecker', { uri: source }],
    ] as const) {
      const response = await app.request(`/api/tools/${tool}`, { method: 'POST', cookie: admin, json: body });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('event: end');
    }
    const seen = runs();
    expect(seen.map((r) => r.program)).toEqual(['ping', 'mtr', 'ffprobe', 'ffprobe']);
    expect(seen[0].argv).toEqual(['-n', '-O', '-c', '1', '-W', '5', '--', '127.0.0.1']);
    expect(seen[1].argv).toEqual(['--raw', '-c', '1', '-n', '--', '127.0.0.1']);
    // The token rides inside the URL, encoded: never an argument of its own.
    expect(seen[2].argv.slice(-4)).toEqual(['-protocol_whitelist', 'http,https,tcp,tls,crypto,httpproxy', '-i', `${source}&token=${encodeURIComponent('st=1~exp=2;$(id)')}`]);
    expect(seen[3].argv).toEqual(['-hide_banner', '-v', 'error', '-show_programs', '-show_streams', '-show_format', '-of', 'json', '-protocol_whitelist', 'http,https,tcp,tls,crypto,httpproxy', '-i', source]);
    // Four runs, each with exactly the argv above: none of the payloads reached a program.
  });
});

describe('what a tool accepts', () => {
  it('takes host names, IDNs in their xn-- form, IPv4 and IPv6 literals as hosts', () => {
    for (const host of ['127.0.0.1', 'example.com', 'example.com.', 'a-b.example.co.uk', 'xn--bcher-kva.example', 'localhost', '::1', '2001:db8::8a2e:370:7334', '::ffff:192.0.2.1', 'fe80::1', `${'a'.repeat(63)}.com`]) {
      expect(isHost(host), host).toBe(true);
    }
  });

  it('takes URLs of the allowed schemes, multicast and IPv6 hosts included', () => {
    for (const url of [
      'udp://239.0.0.1:1234',
      'udp://@239.0.0.1:1234?pkt_size=1316',
      'rtp://127.0.0.1:5004',
      'srt://192.0.2.1:9000?mode=caller&latency=200000',
      'rtmp://live.example.com/app/stream',
      'rtsp://user:pass@camera.example.com:554/stream1',
      'http://[::1]:8080/live/index.m3u8',
      'https://cdn.example.com/live/index.m3u8?token=a%20b',
      'rist://203.0.113.5:8193',
      'HTTP://EXAMPLE.COM/a.ts',
    ]) {
      expect(toolUrlProblem(url), url).toBeNull();
    }
  });
});
