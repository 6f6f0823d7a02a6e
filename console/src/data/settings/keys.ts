export const settingsKeys = {
  all: ['settings'] as const,
  application: ['settings', 'application'] as const,
  redis: ['settings', 'redis'] as const,
  logs: (target: 'rixui' | 'rixjob') => ['settings', 'logs', target] as const,
  features: ['settings', 'features'] as const,
  servers: ['settings', 'streampool-servers'] as const,
};
