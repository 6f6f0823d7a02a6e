import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProcStat, sampleProcessGroup } from '../../engine/stats/process-tree.ts';

describe('parseProcStat', () => {
  it('reads pgid, CPU ticks and RSS after a command name with spaces and parentheses', () => {
    // fields 3.. of proc(5): state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itreal starttime vsize rss
    const stat = '4242 (ffmpeg (x) y) S 100 4242 4242 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 4 0 123456 200000000 5120 18446744073709551615';
    expect(parseProcStat(4242, stat)).toEqual({ pid: 4242, state: 'S', ppid: 100, pgid: 4242, cpuTicks: 175, startTicks: 123456, rssPages: 5120 });
  });
});

describe('sampleProcessGroup', () => {
  it('finds this test process in its own process group', async () => {
    const own = parseProcStat(process.pid, readFileSync('/proc/self/stat', 'utf8'))!;
    const group = await sampleProcessGroup(own.pgid, { fresh: true });
    expect(group.pids).toContain(process.pid);
    expect(group.pids.length).toBeGreaterThanOrEqual(1);
    expect(group.rssBytes).toBeGreaterThan(1024 * 1024);
    expect(group.cpuSeconds).toBeGreaterThan(0);
  });
});
