import { singleRenditionSelect } from '../streams.ts';
import { assertHost, assertIntegerRange, assertIp, assertPort } from '../validate.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/** Seven 188-byte TS packets per UDP datagram: the size every IP video receiver expects. */
export const UDP_TS_PACKET_SIZE = 1316;
/** The same seven TS packets behind a 12-byte RTP header. */
export const RTP_TS_PACKET_SIZE = 1316 + 12;

/**
 * MPEG-TS over UDP (unicast or multicast), or over RTP (payload type 33, via the rtp_mpegts muxer)
 * when `rtp` is set. UDP never blocks the sender, so it needs no queue of its own.
 */
export function buildUdpOutput(output: OutputOf<'udp'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (UDP)`;
  const host = assertHost(output.host, what);
  const port = assertPort(output.port, what);
  const query = [`pkt_size=${output.rtp ? RTP_TS_PACKET_SIZE : UDP_TS_PACKET_SIZE}`];
  if (output.ttl !== undefined) query.push(`ttl=${assertIntegerRange(output.ttl, 1, 255, `${what} TTL`)}`);
  if (output.localAddress) query.push(`localaddr=${assertIp(output.localAddress, `${what} local address`)}`);
  const url = `${output.rtp ? 'rtp' : 'udp'}://${host}:${port}?${query.join('&')}`;
  return {
    slave: { options: slaveOptions(output.rtp ? 'rtp_mpegts' : 'mpegts', singleRenditionSelect(ctx.layout, { withDvb: true })), url },
    directories: [],
    usesStdout: false,
    container: 'mpegts',
  };
}
