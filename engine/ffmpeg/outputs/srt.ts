import { singleRenditionSelect } from '../streams.ts';
import { assertHost, assertIntegerRange, assertPlainText, assertPort, fail } from '../validate.ts';
import { UDP_TS_PACKET_SIZE } from './udp.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/**
 * MPEG-TS over SRT, as caller (connects to host:port) or listener (waits on host:port, every
 * interface when the host is empty or 0.0.0.0). The SRT options go to libsrt as protocol options,
 * not in the URL, so a passphrase may hold any character. ffmpeg's `latency` is in microseconds;
 * the spec's is in milliseconds.
 *
 * A listener always runs in its own queue: until a caller connects (and again after it leaves)
 * packets are dropped while the encode and every other output go on.
 */
export function buildSrtOutput(output: OutputOf<'srt'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (SRT)`;
  if (output.mode !== 'caller' && output.mode !== 'listener') fail(`${what}: mode must be caller or listener`);
  const listener = output.mode === 'listener';
  const host = listener && (!output.host || output.host === '0.0.0.0') ? '0.0.0.0' : assertHost(output.host, `${what} host`);
  const port = assertPort(output.port, what);
  const protocol: Array<[string, string]> = [['mode', output.mode]];
  if (output.latencyMs !== undefined) protocol.push(['latency', String(assertIntegerRange(output.latencyMs, 0, 60_000, `${what} latency (ms)`) * 1000)]);
  if (output.passphrase !== undefined && output.passphrase !== '') {
    const passphrase = assertPlainText(output.passphrase, `${what} passphrase`, 79);
    if (passphrase.length < 10) fail(`${what}: the passphrase must be 10 to 79 characters`);
    protocol.push(['passphrase', passphrase]);
    if (output.pbkeylen !== undefined) {
      if (![16, 24, 32].includes(output.pbkeylen)) fail(`${what}: pbkeylen must be 16, 24 or 32`);
      protocol.push(['pbkeylen', String(output.pbkeylen)]);
    }
  } else if (output.pbkeylen !== undefined) {
    fail(`${what}: pbkeylen needs a passphrase`);
  }
  // The stream id is sent by a caller; a listener has none to send (the spec hides it there).
  if (!listener && output.streamId) protocol.push(['streamid', assertPlainText(output.streamId, `${what} stream id`, 512)]);
  return {
    slave: {
      options: [...slaveOptions('mpegts', singleRenditionSelect(ctx.layout, { withDvb: true }), { fifo: listener || ctx.shared }), ...protocol],
      url: `srt://${host}:${port}`,
    },
    directories: [],
    usesStdout: false,
    container: 'mpegts',
  };
}

/**
 * An SRT output carried by srt-live-transmit (engine/srt/srt-bridge.ts): ffmpeg sends the same
 * MPEG-TS as a UDP slave to the companion's loopback port, in 1316-byte datagrams (seven TS packets,
 * one SRT payload each). The SRT values are checked exactly as for libsrt. A loopback UDP send
 * never blocks, so the slave needs no queue of its own, even for a listener nobody has called yet.
 */
export function buildSrtBridgeOutput(output: OutputOf<'srt'>, ctx: OutputContext, udpPort: number): BuiltOutput {
  buildSrtOutput(output, ctx);
  const port = assertPort(udpPort, `Output ${output.index + 1} (SRT) loopback UDP leg`);
  return {
    slave: {
      options: slaveOptions('mpegts', singleRenditionSelect(ctx.layout, { withDvb: true })),
      url: `udp://127.0.0.1:${port}?pkt_size=${UDP_TS_PACKET_SIZE}`,
    },
    directories: [],
    usesStdout: false,
    container: 'mpegts',
  };
}
