/** Everything under ['timers'] is refreshed by the live topic `timers`. */
export const timerKeys = {
  all: ['timers'] as const,
  list: ['timers', 'list'] as const,
  detail: (id: number) => ['timers', 'detail', id] as const,
};
