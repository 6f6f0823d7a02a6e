import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { joinNvidiaReadings, NVIDIA_APP_ARGS, NVIDIA_GPU_ARGS, parseNvidiaApps, parseNvidiaGpus } from '../../engine/system/nvidia-smi.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/system-tools/${name}`, import.meta.url), 'utf8');

describe('nvidia-smi parser', () => {
  it('asks nvidia-smi for CSV without header or units', () => {
    expect(NVIDIA_GPU_ARGS).toEqual(['--query-gpu=index,uuid,name,temperature.gpu,utilization.gpu,utilization.encoder,utilization.decoder,utilization.memory,memory.used,memory.total', '--format=csv,noheader,nounits']);
    expect(NVIDIA_APP_ARGS[0]).toBe('--query-compute-apps=gpu_uuid,pid,process_name,used_memory');
  });

  it('reads SM, ENC, DEC, MEM and temperature of every card', () => {
    const gpus = parseNvidiaGpus(fixture('nvidia-smi-query-gpu.csv'));
    expect(gpus).toHaveLength(3);
    expect(gpus[0]).toMatchObject({ index: 0, name: 'NVIDIA GeForce RTX 3080', temperature: 64, streamingMultiprocessorUsagePercent: 37, encoderUsed: 22, decoderUsed: 11, memoryUsed: 14, memoryUsedMiB: 3120, memoryTotalMiB: 10240 });
  });

  it('reads [N/A] and [Not Supported] as unknown, not as zero', () => {
    const t4 = parseNvidiaGpus(fixture('nvidia-smi-query-gpu.csv'))[2];
    expect(t4.streamingMultiprocessorUsagePercent).toBeNull();
    expect(t4.memoryUsed).toBeNull();
    expect(t4.encoderUsed).toBe(5);
  });

  it('attaches the processes to their card by uuid', () => {
    const gpus = joinNvidiaReadings(fixture('nvidia-smi-query-gpu.csv'), fixture('nvidia-smi-query-compute-apps.csv'));
    expect(gpus[0].processes.map((p) => p.pid)).toEqual([41233, 41890]);
    expect(gpus[1].processes).toEqual([]);
    expect(gpus[2].processes).toEqual([{ pid: 52001, name: '/opt/encoder/bin/ffmpeg', usedMemoryMiB: null }]);
  });

  it('reads no processes from an empty list', () => {
    expect(parseNvidiaApps(fixture('nvidia-smi-no-apps.csv'))).toEqual([]);
    expect(parseNvidiaApps('No running processes found\n')).toEqual([]);
  });

  it('skips lines that are not readings (an error message of the driver)', () => {
    expect(parseNvidiaGpus('NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver.\n')).toEqual([]);
  });
});
