import { singleRenditionSelect } from '../streams.ts';
import { assertHost, assertPort } from '../validate.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/** MPEG-TS over a TCP connection: to host:port, or (listen) to the one client that connects to it. */
export function buildTcpOutput(output: OutputOf<'tcp'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (TCP)`;
  const host = output.listen && (!output.host || output.host === '0.0.0.0') ? '0.0.0.0' : assertHost(output.host, `${what} host`);
  const port = assertPort(output.port, what);
  const url = `tcp://${host}:${port}${output.listen ? '?listen=1' : ''}`;
  return {
    slave: { options: slaveOptions('mpegts', singleRenditionSelect(ctx.layout, { withDvb: true }), { fifo: Boolean(output.listen) || ctx.shared }), url },
    directories: [],
    usesStdout: false,
    container: 'mpegts',
  };
}
