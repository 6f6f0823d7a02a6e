import { defineOperation } from '../operation.ts';
import { ErrorBody } from '../schemas/common.ts';
import { KeyframeRequest, MediaCheckRequest, MtrRequest, PingRequest, ToolEvent } from '../schemas/tools.ts';

const tag = 'tools';
/** Spec 03 §6: TOOLS_VIEW views (and runs) the tools; TOOLS_EDIT holds it too. */
const view = { anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'] } as const;

const STREAM =
  'The answer is a Server-Sent Events stream (text/event-stream): each event is `event: <type>` with a ToolEvent as its JSON `data`, sent as the tool produces it. ' +
  'The program runs on the node the request names (`node`, else the node this API runs on): another node gets the run over the event bus and streams its events back as they come. ' +
  'The stream opens with `start` (naming the node) and closes with `end` (reason completed, failed, aborted or timed_out). To stop or abort a run, close the request (abort the fetch, Ctrl-C in the CLI): ' +
  'the node ends the child process at once (SIGTERM to its process group, SIGKILL 2 s later). A comment line every 15 s keeps proxies from closing a quiet stream. ' +
  'The input is validated before anything runs (400 naming the field); the program is started without a shell, the user\'s value as one argument after `--` or `-i`.';

const errors = {
  400: { description: 'A field breaks a rule (the message and `details` name it); nothing was run.', schema: ErrorBody },
  404: { description: 'The node does not exist.', schema: ErrorBody },
  409: { description: 'NODE_OFFLINE: the node\'s heartbeat is stale (or it is switched off); nothing was run.', schema: ErrorBody },
  429: { description: 'TOO_MANY_RUNS: too many tool runs at once (8 per user, 32 on the node).', schema: ErrorBody },
  503: { description: 'NODE_UNREACHABLE: the node did not take the run within 5 s (its server or agent is not running).', schema: ErrorBody },
} as const;

const streamResponse = (what: string) => ({ description: `An event stream of ${what}.`, contentType: 'text/event-stream', schema: ToolEvent });

export const toolOperations = {
  runPing: defineOperation({
    operationId: 'runPing',
    method: 'post',
    path: '/api/tools/ping',
    tag,
    summary: 'Ping a host and stream each reply as it comes',
    description: `Runs \`ping -n -O -c <count> -W 5 -- <address>\`. Events: \`line\` (each output line, with the parsed reply), \`summary\` (the statistics), \`error\` (ping's own error, e.g. an unknown host: the payload error). ${STREAM}`,
    permission: view,
    body: PingRequest,
    responses: { 200: streamResponse('ping\'s lines'), ...errors },
  }),
  runMtr: defineOperation({
    operationId: 'runMtr',
    method: 'post',
    path: '/api/tools/mtr',
    tag,
    summary: 'Trace the route to a host with mtr and stream the hop table as it fills',
    description: `Runs \`mtr --raw -c <count> [-n] -- <host>\`. Events: \`hops\` (the whole hop table with loss and timings, at most 4 times a second), \`error\`. ${STREAM}`,
    permission: view,
    body: MtrRequest,
    responses: { 200: streamResponse('hop tables'), ...errors },
  }),
  runKeyframe: defineOperation({
    operationId: 'runKeyframe',
    method: 'post',
    path: '/api/tools/keyframe',
    tag,
    summary: 'Measure the keyframe interval of a source, streaming each interval as it is read',
    description: `Runs ffprobe on the first video stream (packets only, nothing decoded) until intervalCount intervals were measured, bounded to 15 minutes. Events: \`keyframe\` (each interval), \`interval\` (the result), \`error\` (shown as "got error {error}"). ${STREAM}`,
    permission: view,
    body: KeyframeRequest,
    responses: { 200: streamResponse('keyframe intervals'), ...errors },
  }),
  runMediaCheck: defineOperation({
    operationId: 'runMediaCheck',
    method: 'post',
    path: '/api/tools/mediachecker',
    tag,
    summary: 'Find the programs and streams of a source (the media checker)',
    description: `Runs ffprobe on the source, bounded to 30 s. Events: \`result\` (format, programs, streams) or \`error\` (with \`details\`: each key and value of the error). ${STREAM}`,
    permission: view,
    body: MediaCheckRequest,
    responses: { 200: streamResponse('the check'), ...errors },
  }),
};
