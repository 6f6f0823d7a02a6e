import { describe, expect, it } from 'vitest';
import {
  bridgeUnsupportedReason,
  srtLinkOfInputUri,
  srtLinkOfOutput,
  srtLiveTransmitArgs,
  type SrtLink,
  type SrtLiveTransmitSpec,
} from '../../engine/srt/srt-live-transmit-args.ts';

const output = (link: SrtLink, extra: Partial<SrtLiveTransmitSpec> = {}): string[] =>
  srtLiveTransmitArgs({ direction: 'output', link, udpPort: 40000, what: 'Output 1 (SRT)', ...extra });

describe('srt-live-transmit argv', () => {
  it('output, listener: statistics options first, then UDP from ffmpeg on loopback, then the SRT listener on every interface', () => {
    expect(output({ mode: 'listener', host: '', port: 9000, latencyMs: 120, passphrase: 'correct horse battery', pbkeylen: 16 })).toEqual([
      '-s:25',
      '-pf:json',
      '-f',
      '-ll:warn',
      'udp://127.0.0.1:40000?rcvbuf=8388608',
      'srt://:9000?mode=listener&latency=120&passphrase=correct horse battery&pbkeylen=16',
    ]);
    expect(output({ mode: 'listener', host: '0.0.0.0', port: 9000 }).at(-1)).toBe('srt://:9000?mode=listener');
    expect(output({ mode: 'listener', host: '10.0.0.2', port: 9000 }).at(-1)).toBe('srt://10.0.0.2:9000?mode=listener');
  });

  it('output, caller: the peer, latency in milliseconds and the stream id as written (no decoding on either side)', () => {
    expect(output({ mode: 'caller', host: 'ingest.example.com', port: 9000, latencyMs: 200, streamId: '#!::r=live/x,m=publish' }, { statsEveryPackets: 100 })).toEqual([
      '-s:100',
      '-pf:json',
      '-f',
      '-ll:warn',
      'udp://127.0.0.1:40000?rcvbuf=8388608',
      'srt://ingest.example.com:9000?mode=caller&latency=200&streamid=#!::r=live/x,m=publish',
    ]);
    expect(output({ mode: 'caller', host: '::1', port: 9000 }).at(-1)).toBe('srt://[::1]:9000?mode=caller');
  });

  it('input: SRT first, then UDP to the loopback port ffmpeg reads', () => {
    const args = srtLiveTransmitArgs({ direction: 'input', link: { mode: 'caller', host: '192.0.2.7', port: 9000, rcvLatencyMs: 300, peerLatencyMs: 100 }, udpPort: 41000, what: 'Input URI' });
    expect(args.slice(-2)).toEqual(['srt://192.0.2.7:9000?mode=caller&rcvlatency=300&peerlatency=100', 'udp://127.0.0.1:41000']);
  });

  it('a listener has no stream id to send: it is left out', () => {
    expect(output({ mode: 'listener', host: '', port: 9000, streamId: 'ignored' }).at(-1)).toBe('srt://:9000?mode=listener');
  });

  it('no user value can become an option: every argv entry is one of ours or a URL of ours', () => {
    const args = output({ mode: 'caller', host: 'h.example.com', port: 9000, passphrase: '-s:1 -pf:csv x', streamId: ' -f' });
    expect(args.slice(0, 4)).toEqual(['-s:25', '-pf:json', '-f', '-ll:warn']);
    expect(args.slice(4).every((arg) => /^(udp|srt):\/\//.test(arg))).toBe(true);
  });

  it('refuses what libsrt would refuse, with the same messages as the ffmpeg output builder', () => {
    const caller: SrtLink = { mode: 'caller', host: 'h.example.com', port: 9000 };
    expect(() => output({ ...caller, host: '-f' })).toThrow(/not a hostname or an IP address/);
    expect(() => output({ ...caller, host: 'h.example.com?mode=listener' })).toThrow(/not a hostname/);
    expect(() => output({ ...caller, host: '' })).toThrow(/host is required/);
    expect(() => output({ ...caller, port: 0 })).toThrow(/port must be/);
    expect(() => output({ ...caller, port: 65536 })).toThrow(/port must be/);
    expect(() => output({ ...caller, mode: 'rendezvous' as 'caller' })).toThrow(/caller or listener/);
    expect(() => output({ ...caller, latencyMs: -1 })).toThrow(/latency/);
    expect(() => output({ ...caller, passphrase: 'short' })).toThrow(/10 to 79/);
    expect(() => output({ ...caller, passphrase: 'x'.repeat(80) })).toThrow(/longer than 79/);
    expect(() => output({ ...caller, passphrase: 'line\nbreak here' })).toThrow(/control characters/);
    expect(() => output({ ...caller, pbkeylen: 16 })).toThrow(/needs a passphrase/);
    expect(() => output({ ...caller, passphrase: 'long enough', pbkeylen: 20 as 16 })).toThrow(/16, 24 or 32/);
    expect(() => output(caller, { udpPort: 0 })).toThrow(/port must be/);
    expect(output({ ...caller, passphrase: 'x'.repeat(10) }).at(-1)).toContain(`passphrase=${'x'.repeat(10)}`);
    expect(output({ ...caller, passphrase: 'x'.repeat(79) }).at(-1)).toContain(`passphrase=${'x'.repeat(79)}`);
  });

  it('a value holding "&" (srt-live-transmit would read the rest as another option) is refused, and reported as a reason to stay with libsrt', () => {
    const link: SrtLink = { mode: 'caller', host: 'h.example.com', port: 9000, passphrase: 'abc&mode=listener' };
    expect(() => output(link)).toThrow(/must not contain "&"/);
    expect(bridgeUnsupportedReason(link)).toMatch(/passphrase contains "&"/);
    expect(bridgeUnsupportedReason({ mode: 'caller', host: 'h', port: 1, streamId: 'a&b' })).toMatch(/stream id/);
    expect(bridgeUnsupportedReason({ mode: 'listener', host: '', port: 1, streamId: 'a&b' })).toBeUndefined();
    expect(bridgeUnsupportedReason({ mode: 'caller', host: 'h', port: 1, passphrase: "c0rrect: horse|battery]['st\\aple" })).toBeUndefined();
  });

  it('an SRT output spec becomes a link with the same values', () => {
    expect(srtLinkOfOutput({ index: 2, type: 'srt', mode: 'caller', host: 'h.example.com', port: 9000, latencyMs: 250, passphrase: 'correct horse battery', pbkeylen: 32, streamId: 'cam1' })).toEqual({
      mode: 'caller',
      host: 'h.example.com',
      port: 9000,
      latencyMs: 250,
      passphrase: 'correct horse battery',
      pbkeylen: 32,
      streamId: 'cam1',
    });
  });
});

describe('srt:// input URLs read as ffmpeg 5.1 reads them', () => {
  it('mode (caller by default), latencies from microseconds to milliseconds, passphrase, key length and stream id', () => {
    expect(srtLinkOfInputUri('srt://:9000?mode=listener&latency=200000&passphrase=correct+horse+battery&pbkeylen=24')).toEqual({
      link: { mode: 'listener', host: '', port: 9000, latencyMs: 200, passphrase: 'correct horse battery', pbkeylen: 24 },
    });
    expect(srtLinkOfInputUri('srt://192.0.2.7:9000?streamid=#!::r=live/x,m=request&rcvlatency=1500&timeout=5000000')).toEqual({
      link: { mode: 'caller', host: '192.0.2.7', port: 9000, rcvLatencyMs: 1, streamId: '#!::r=live/x,m=request' },
    });
  });

  it('the first occurrence of an option counts, as in av_find_info_tag', () => {
    expect(srtLinkOfInputUri('srt://h.example.com:9000?mode=caller&mode=listener')).toEqual({ link: { mode: 'caller', host: 'h.example.com', port: 9000 } });
  });

  it('options the bridge does not translate, and rendezvous mode, leave the input to libsrt', () => {
    expect(srtLinkOfInputUri('srt://h.example.com:9000?maxbw=1000&tlpktdrop=0')).toEqual({ unsupported: expect.stringMatching(/maxbw, tlpktdrop/) });
    expect(srtLinkOfInputUri('srt://h.example.com:9000?mode=rendezvous')).toEqual({ unsupported: expect.stringMatching(/rendezvous/) });
    expect(srtLinkOfInputUri('srt://user@h.example.com:9000')).toEqual({ unsupported: expect.any(String) });
  });

  it('refuses URLs that are not valid', () => {
    expect(() => srtLinkOfInputUri('srt://h.example.com')).toThrow(/needs a port/);
    expect(() => srtLinkOfInputUri('srt://:9000?mode=caller')).toThrow(/caller needs a host/);
    expect(() => srtLinkOfInputUri('srt://-f:9000')).toThrow(/not a hostname/);
    expect(() => srtLinkOfInputUri('srt://h.example.com:9000?latency=soon')).toThrow(/microseconds/);
    expect(() => srtLinkOfInputUri('srt://h.example.com:9000?passphrase=long+enough&pbkeylen=8')).toThrow(/16, 24 or 32/);
    expect(() => srtLinkOfInputUri('udp://h.example.com:9000')).toThrow(/not allowed/);
  });
});
