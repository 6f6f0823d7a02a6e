import { z } from 'zod';
import { MAX_ID } from './common.ts';
import { MediaInfo } from './job-insights.ts';

/**
 * The diagnostic tools of spec 03 §2 (Ping, MTR, Keyframe interval, Media checker). What a user
 * types here reaches a child process (ping, mtr, ffprobe) as ONE argv entry, never through a shell,
 * so the contract refuses anything that is not a plain host name, an IP literal or a URL with an
 * allowed scheme before a process is even considered.
 */

/** Schemes the media tools accept (ffmpeg protocols that read a network source). */
export const TOOL_URL_SCHEMES = ['udp', 'rtp', 'srt', 'rtmp', 'rtsp', 'http', 'https', 'rist'] as const;

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv6 literal, without brackets or zone: hex groups and at most one "::", or an IPv4 tail. */
export function isIpv6(value: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || value.length > 45 || !value.includes(':')) return false;
  let text = value;
  let groupsWanted = 8;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!IPV4.test(tail)) return false;
    text = `${text.slice(0, lastColon + 1)}0`;
    groupsWanted = 7;
  }
  const doubles = text.split('::').length - 1;
  if (doubles > 1) return false;
  const group = /^[0-9A-Fa-f]{1,4}$/;
  if (doubles === 1) {
    const [head, rest] = text.split('::');
    const parts = [...(head ? head.split(':') : []), ...(rest ? rest.split(':') : [])];
    return parts.every((p) => group.test(p)) && parts.length < groupsWanted;
  }
  const parts = text.split(':');
  return parts.length === groupsWanted && parts.every((p) => group.test(p));
}

/**
 * A host is a host: a DNS name of ASCII letters, digits and hyphens (IDNs in their xn-- form),
 * an IPv4 literal or an IPv6 literal. Never an option (no leading "-"), never spaces, quotes,
 * shell characters or lookalike Unicode.
 */
export function isHost(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  if (IPV4.test(value) || isIpv6(value)) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  return name.length > 0 && name.split('.').every((label) => HOST_LABEL.test(label));
}

/** Why a tool URL is refused, or null when it is fine. */
export function toolUrlProblem(value: string): string | null {
  if (value.length === 0) return 'URI is required';
  if (value.length > 2048) return 'must be at most 2048 characters';
  if (value.startsWith('-')) return 'must not start with "-"';
  // Printable ASCII only: no spaces, control characters, newlines or lookalike Unicode (percent-encode them).
  if (!/^[\x21-\x7e]+$/.test(value)) return 'must be printable ASCII without spaces (percent-encode other characters)';
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value);
  const scheme = match?.[1].toLowerCase();
  if (!scheme || !(TOOL_URL_SCHEMES as readonly string[]).includes(scheme)) {
    const named = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1];
    return `must be a URL with one of the schemes ${TOOL_URL_SCHEMES.join(', ')}${named ? ` (not ${named.toLowerCase()}:)` : ''}`;
  }
  if (/[|`$;<>\\"'{}^]/.test(value)) return 'must not contain | ` $ ; < > \\ " \' { } ^';
  let host: string;
  try {
    host = new URL(value).hostname;
  } catch {
    return 'is not a valid URL';
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!bare || !isHost(bare)) return 'must name a host (a DNS name or an IP address)';
  return null;
}

const hostField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(253, `${label} must be at most 253 characters`)
    .refine(isHost, `${label} must be a host name or an IP address (letters, digits, dots and hyphens; not starting with "-")`);

const countField = (label: string, fallback: number) =>
  z
    .number({ error: `${label} must be a number from 1 to 1000` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(1000, `${label} must be at most 1000`)
    .default(fallback);

const urlField = z
  .string({ error: 'URI is required' })
  .superRefine((value, ctx) => {
    const problem = toolUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem === 'URI is required' ? problem : `URI ${problem}` });
  })
  .describe(`The source: a URL with one of the schemes ${TOOL_URL_SCHEMES.join(', ')}. file:, concat:, subfile:, data:, pipe: and every other protocol are refused.`);

const tokenField = z
  .string()
  .max(500, 'Token must be at most 500 characters')
  .regex(/^[\x21-\x7e]*$/, 'Token must be printable ASCII without spaces')
  .optional()
  .describe('Appended to http(s), rtmp and rtsp URLs as `token=...` (URL-encoded) when tokenRequired is on.');

const nodeField = z
  .number()
  .int()
  .positive()
  .max(MAX_ID)
  .optional()
  .describe('The node to run on (the console\'s selected node): that node\'s engine runs the program and streams its results back through this API. Absent: the node this API runs on.');

export const PingRequest = z
  .object({
    address: hostField('Address').describe('Host name or IP address to ping.'),
    count: countField('Count', 10).describe('Echo requests to send, 1 to 1000 (default 10).'),
    node: nodeField,
  })
  .meta({ id: 'PingRequest', description: 'Ping a host from the node.' });

export const MtrRequest = z
  .object({
    host: hostField('Host').describe('Host name or IP address to trace.'),
    noDns: z.boolean().default(false).describe('Show IP addresses only: no reverse DNS lookups of the hops.'),
    count: countField('Count', 30).describe('Probe cycles, 1 to 1000 (default 30).'),
    node: nodeField,
  })
  .meta({ id: 'MtrRequest', description: 'Trace the route to a host with mtr from the node.' });

const tokenRule = (value: { tokenRequired?: boolean; token?: string }, ctx: z.RefinementCtx) => {
  if (value.tokenRequired && !value.token) ctx.addIssue({ code: 'custom', path: ['token'], message: 'Token is required when tokenRequired is on' });
};

export const KeyframeRequest = z
  .object({
    uri: urlField,
    tokenRequired: z.boolean().default(false),
    token: tokenField,
    intervalCount: z
      .number({ error: 'Interval count must be a number of at least 1' })
      .int('Interval count must be a whole number')
      .min(1, 'Interval count must be at least 1')
      .max(1000, 'Interval count must be at most 1000')
      .default(10)
      .describe('Keyframe intervals to measure (placeholder 10).'),
    node: nodeField,
  })
  .superRefine(tokenRule)
  .meta({ id: 'KeyframeRequest', description: 'Measure the keyframe interval (GOP) of a source.' });

export const MediaCheckRequest = z
  .object({
    uri: urlField,
    tokenRequired: z.boolean().default(false),
    token: tokenField,
    node: nodeField,
  })
  .superRefine(tokenRule)
  .meta({ id: 'MediaCheckRequest', description: 'Find the programs and streams of a source.' });

export const PingReply = z
  .object({
    bytes: z.number().int().nullable(),
    from: z.string().describe('Who answered.'),
    seq: z.number().int(),
    ttl: z.number().int().nullable(),
    timeMs: z.number().nullable().describe('Round-trip time in milliseconds.'),
  })
  .meta({ id: 'PingReply', description: 'One echo reply.' });

export const PingSummary = z
  .object({
    transmitted: z.number().int(),
    received: z.number().int(),
    errors: z.number().int(),
    lossPercent: z.number(),
    timeMs: z.number().nullable(),
    rtt: z.object({ minMs: z.number(), avgMs: z.number(), maxMs: z.number(), mdevMs: z.number() }).nullable(),
  })
  .meta({ id: 'PingSummary', description: 'The statistics ping prints at its end.' });

export const MtrHop = z
  .object({
    hop: z.number().int().describe('1 for the first router.'),
    host: z.string().nullable().describe('The address (or its DNS name) that answered; null: none answered yet ("???").'),
    address: z.string().nullable(),
    lossPercent: z.number(),
    sent: z.number().int(),
    received: z.number().int(),
    lastMs: z.number().nullable(),
    avgMs: z.number().nullable(),
    bestMs: z.number().nullable(),
    worstMs: z.number().nullable(),
    stdevMs: z.number().nullable(),
  })
  .meta({ id: 'MtrHop', description: 'One hop of the route with its statistics so far.' });

export const KeyframeSample = z
  .object({
    index: z.number().int().describe('1 for the first interval measured.'),
    timeSeconds: z.number().describe('Time of the keyframe that closes the interval.'),
    intervalSeconds: z.number(),
    gopFrames: z.number().int().describe('Video frames in the interval.'),
  })
  .meta({ id: 'KeyframeSample', description: 'One keyframe interval.' });

export const KeyframeResult = z
  .object({
    interval: z.number().describe('The mean keyframe interval in seconds.'),
    minSeconds: z.number(),
    maxSeconds: z.number(),
    gopFrames: z.number().describe('The mean GOP length in frames.'),
    count: z.number().int().describe('Intervals measured.'),
  })
  .meta({ id: 'KeyframeResult', description: 'The keyframe interval over the intervals measured.' });

export const ToolEndReason = z.enum(['completed', 'failed', 'aborted', 'timed_out']).meta({ id: 'ToolEndReason', description: 'completed: the tool ended by itself; failed: it could not do its work; aborted: the client stopped it; timed_out: it ran past its bound.' });

/**
 * One event of a tool's stream. Each SSE event is `event: <type>` with this object as its JSON
 * `data`. Every stream opens with `start` and closes with `end`.
 */
export const ToolEvent = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('start'),
      tool: z.enum(['ping', 'mtr', 'keyframe', 'mediacheck']),
      target: z.string(),
      nodeId: z.number().int().nullable().describe('The node that runs the program (nodes.id); null before this API\'s node registered.'),
      nodeName: z.string().nullable().describe('Its name.'),
      startedAt: z.string(),
    }),
    z.object({
      type: z.literal('line'),
      kind: z.enum(['reply', 'no_answer', 'error', 'info']).describe('reply: an echo reply; no_answer: a request left unanswered; error: an error answer (unreachable ...); info: the rest.'),
      text: z.string().describe('An output line of ping as it printed it (the payload).'),
      reply: PingReply.optional(),
    }),
    z.object({ type: z.literal('summary'), summary: PingSummary }),
    z.object({ type: z.literal('hops'), hops: z.array(MtrHop) }),
    z.object({ type: z.literal('keyframe'), sample: KeyframeSample }),
    z.object({ type: z.literal('interval'), result: KeyframeResult }),
    z.object({ type: z.literal('result'), mediaInfo: MediaInfo }),
    z.object({
      type: z.literal('error'),
      error: z.string().describe('What went wrong, as the tool said it.'),
      details: z.record(z.string(), z.string()).optional().describe('The error as key/value pairs (media checker\'s Error section).'),
    }),
    z.object({ type: z.literal('end'), reason: ToolEndReason, exitCode: z.number().int().nullable(), durationMs: z.number().int() }),
  ])
  .meta({ id: 'ToolEvent', description: 'One event of a tool run, streamed as it happens.' });

export type ToolEventValue = z.infer<typeof ToolEvent>;
export type PingRequestValue = z.output<typeof PingRequest>;
export type MtrRequestValue = z.output<typeof MtrRequest>;
export type KeyframeRequestValue = z.output<typeof KeyframeRequest>;
export type MediaCheckRequestValue = z.output<typeof MediaCheckRequest>;
