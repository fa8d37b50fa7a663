import type { CollectionName, RecordTimes, Store } from './store.js';

const keyOf = (name: CollectionName, key: string) => `${name}|${key}`;

/** A record was created (or first loaded) at `now`. */
export function stampCreated(store: Store, name: CollectionName, key: string, now: number): void {
  store.times.set(keyOf(name, key), { created: now, updated: now });
}

/** A record was replaced at `now`: its update time moves, its create time stays. */
export function stampUpdated(store: Store, name: CollectionName, key: string, now: number): void {
  const known = store.times.get(keyOf(name, key));
  store.times.set(keyOf(name, key), { created: known?.created ?? now, updated: now });
}

export function forgetTimes(store: Store, name: CollectionName, key: string): void {
  store.times.delete(keyOf(name, key));
}

/** The times the store keeps for a record (records loaded before times existed count as created at 0). */
export function timesOf(store: Store, name: CollectionName, key: string): RecordTimes {
  return store.times.get(keyOf(name, key)) ?? { created: 0, updated: 0 };
}
