import { describe, expect, it } from 'vitest';
import { isLegalTransition, strictTransitions, TRANSITIONS } from '../../engine/supervisor/transitions.ts';
import type { JobState } from '../../engine/types.ts';

const STATES: JobState[] = ['starting', 'running', 'restarting', 'stopping', 'stopped', 'failed'];

describe('supervisor transition table', () => {
  it('covers every state', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATES].sort());
  });

  it('enters running only from starting (on the first progress block)', () => {
    expect(STATES.filter((s) => isLegalTransition(s, 'running'))).toEqual(['starting']);
  });

  it('starts a process only from stopped, failed, restarting or stopping', () => {
    expect(STATES.filter((s) => isLegalTransition(s, 'starting')).sort()).toEqual(['failed', 'restarting', 'stopped', 'stopping']);
  });

  it('fails only a process that was starting or running', () => {
    expect(STATES.filter((s) => isLegalTransition(s, 'failed')).sort()).toEqual(['running', 'starting']);
  });

  it('refuses moves that make no sense', () => {
    expect(isLegalTransition('stopped', 'running')).toBe(false);
    expect(isLegalTransition('stopped', 'stopping')).toBe(false);
    expect(isLegalTransition('failed', 'running')).toBe(false);
    expect(isLegalTransition('stopping', 'running')).toBe(false);
    expect(isLegalTransition('running', 'starting')).toBe(false);
  });

  it('throws on an illegal move under test', () => {
    expect(strictTransitions()).toBe(true);
  });
});
