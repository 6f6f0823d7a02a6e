/** Which permissions let a user receive the live events of a topic. */
export const TOPIC_PERMISSIONS: Record<string, readonly string[]> = {
  users: ['USER_VIEW', 'USER_EDIT'],
};
