import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeJsonObjects, intelGpuTopArgs, parseIntelGpuTop } from '../../engine/system/intel-gpu-top.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/system-tools/${name}`, import.meta.url), 'utf8');

describe('intel_gpu_top parser', () => {
  it('runs intel_gpu_top in JSON mode with the sample period', () => {
    expect(intelGpuTopArgs(500)).toEqual(['-J', '-s', '500']);
  });

  it('reads render, video 1 and video 2 from the last complete sample of a running array', () => {
    expect(parseIntelGpuTop(fixture('intel-gpu-top.json'))).toEqual({ renderUsed: 23.5, video1Used: 61.3, video2Used: 12 });
  });

  it('leaves out a sample cut in the middle', () => {
    expect(completeJsonObjects(fixture('intel-gpu-top.json'))).toHaveLength(2);
  });

  it('reads the merged engine names of newer versions (no instance), with no second video engine', () => {
    expect(parseIntelGpuTop(fixture('intel-gpu-top-merged.json'))).toEqual({ renderUsed: 5.3, video1Used: 44.5, video2Used: null });
  });

  it('reads nothing from output that holds no sample', () => {
    expect(parseIntelGpuTop('Failed to initialize PMU! (Permission denied)\n')).toBeNull();
    expect(parseIntelGpuTop('')).toBeNull();
  });
});
