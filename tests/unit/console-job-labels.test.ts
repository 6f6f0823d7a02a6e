import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../openapi/permissions.ts';
import { formatBitrate, formatBytes, formatCpu, jobGrants, statusFilterOptions, workStatusLabel, workStatusOf } from '../../console/src/features/jobs/jobLabels.ts';

describe('the job lists\' labels (spec 01 §2.5, §4, §6)', () => {
  it('shows the work status "Streaming" as "Transcoding" for encodings only', () => {
    expect(workStatusLabel('encoding', 'Streaming')).toBe('Transcoding');
    expect(workStatusLabel('relay', 'Streaming')).toBe('Streaming');
    expect(workStatusLabel('encoding', 'Waiting')).toBe('Waiting');
    expect(statusFilterOptions('encoding').map((o) => o.label)).toEqual(['Active', 'Inactive', 'Transcoding', 'Waiting', 'Failed']);
    expect(statusFilterOptions('relay').map((o) => o.label)).toEqual(['Active', 'Inactive', 'Streaming', 'Waiting', 'Failed']);
  });

  it('reads CPU 0.00% while a job is off, whatever the last sample was', () => {
    expect(formatCpu({ on: false, cpu: 37.5 })).toBe('0.00%');
    expect(formatCpu({ on: true, cpu: 7.456 })).toBe('7.46%');
  });

  it('derives the work status of a live state change as the API does', () => {
    expect(workStatusOf(false, 'running')).toBe('Stopped');
    expect(workStatusOf(true, 'running')).toBe('Streaming');
    expect(workStatusOf(true, 'starting')).toBe('Waiting');
    expect(workStatusOf(true, 'failed')).toBe('Failed');
  });

  it('formats memory and bitrates', () => {
    expect(formatBytes(55_050_240)).toBe('52.5 MB');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBitrate(2_345_678)).toBe('2.35 Mbps');
    expect(formatBitrate(850_000)).toBe('850 Kbps');
  });

  it('grants each control from the fine-grained permissions', () => {
    const viewOnly = jobGrants('relay', new Set(['RELAY_VIEW']));
    expect(Object.values(viewOnly).some(Boolean)).toBe(false);
    const onOff = jobGrants('relay', new Set(['RELAY_VIEW', 'RELAY_VIEW_ON_OFF']));
    expect(onOff).toMatchObject({ onOff: true, edit: false, restart: false, delete: false, log: false });
    const viewEdit = jobGrants('encoding', new Set(['ENCODING_VIEW', 'ENCODING_VIEW_EDIT']));
    expect(viewEdit).toMatchObject({ edit: true, onOff: true, fullEdit: false, templateEdit: true, templateDelete: false });
    const admin = jobGrants('encoding', new Set(ALL_PERMISSIONS));
    expect(Object.values(admin).every(Boolean)).toBe(true);
    // Another kind's permissions grant nothing here.
    expect(Object.values(jobGrants('relay', new Set(['ENCODING_EDIT']))).some(Boolean)).toBe(false);
  });
});
