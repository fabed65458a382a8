/** Night mode and text size: state in React, applied to <html> (where the head script put them first) and stored. */
import { useEffect, useState } from 'react';
import { DARK_CLASS, parseTextSize, TEXT_SIZE_DEFAULT, TEXT_SIZE_KEY, THEME_KEY } from '../../preferences';
import { readStorage, writeStorage } from './storage';

/** Every night-mode switch on the page (header, float menu) hears a change made by any of them. */
const nightListeners = new Set<(night: boolean) => void>();

export function useNightMode(): [boolean, (night: boolean) => void] {
  const [night, setNight] = useState(false);
  useEffect(() => {
    // Read after hydration: the server cannot know, and the head script has already painted the right theme.
    setNight(document.documentElement.classList.contains(DARK_CLASS));
    nightListeners.add(setNight);
    return () => {
      nightListeners.delete(setNight);
    };
  }, []);
  const change = (next: boolean) => {
    document.documentElement.classList.toggle(DARK_CLASS, next);
    writeStorage(THEME_KEY, next ? 'dark' : 'light');
    for (const listener of nightListeners) listener(next);
  };
  return [night, change];
}

export function useTextSize(): [number, (size: number) => void] {
  const [size, setSize] = useState(TEXT_SIZE_DEFAULT);
  useEffect(() => setSize(parseTextSize(readStorage(TEXT_SIZE_KEY))), []);
  const change = (next: number) => {
    const value = parseTextSize(String(next));
    setSize(value);
    document.documentElement.dataset.textSize = String(value);
    writeStorage(TEXT_SIZE_KEY, String(value));
  };
  return [size, change];
}
