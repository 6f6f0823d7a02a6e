/** Which permissions let a user receive the live events of a topic. */
export const TOPIC_PERMISSIONS: Record<string, readonly string[]> = {
  users: ['USER_VIEW', 'USER_EDIT'],
  relays: ['RELAY_VIEW', 'RELAY_EDIT'],
  encodings: ['ENCODING_VIEW', 'ENCODING_EDIT'],
  presets: ['ENCODING_VIEW', 'ENCODING_EDIT'],
  watermarks: ['ENCODING_VIEW', 'ENCODING_EDIT'],
  timers: ['TOOLS_VIEW', 'TOOLS_EDIT'],
  settings: ['SETTINGS_VIEW', 'SETTINGS_EDIT', 'STREAM_POOL_VIEW', 'STREAM_POOL_EDIT'],
};
