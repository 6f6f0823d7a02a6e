import { useCallback, useState } from 'react';

/** Where the browser keeps the clock the timer screens show (spec 03: the time picker's 12-hour mode is configurable). */
export const HOUR12_STORAGE_KEY = 'mediaplane.timers.hour12';

function savedHour12(): boolean {
  try {
    return localStorage.getItem(HOUR12_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The 12-hour (AM/PM) or 24-hour clock of the timer list and form, kept in localStorage; 24-hour until chosen. */
export function useHour12(): [boolean, (on: boolean) => void] {
  const [hour12, setState] = useState(savedHour12);
  const setHour12 = useCallback((on: boolean) => {
    try {
      localStorage.setItem(HOUR12_STORAGE_KEY, String(on));
    } catch {
      // private mode: the choice lasts for this page only
    }
    setState(on);
  }, []);
  return [hour12, setHour12];
}
