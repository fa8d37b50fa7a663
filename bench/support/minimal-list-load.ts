// The bench's floor of a list walk over a changed v1 answer, never used by the product: the work any
// proxy keeping the v2 list contract must do with the whole answer before it can serve a first page,
// written by hand with nothing else. It parses v1's groups, translates each (id → uid), renders it,
// fingerprints the text and looks its times up (the change check that moves updateTime), adds the
// times to the text, sorts by uid and joins the texts into one string pages are cut from.
import { hash } from 'node:crypto';

interface Times {
  fingerprint: string;
  added: string;
}

/** Loads the v1 answer `text`; `times` is the store of times it checks each record against (kept between loads). */
export function minimalListLoad(text: string, times: Map<string, Times>, now: number): { json: string; count: number } {
  const records = (JSON.parse(text) as { items: Record<string, unknown>[] }).items;
  const n = records.length;
  const texts: string[] = new Array(n);
  const uids: string[] = new Array(n);
  const stamp = new Date(now).toISOString();
  for (let i = 0; i < n; i += 1) {
    const { id, ...rest } = records[i] as Record<string, unknown>;
    const uid = String(id);
    const item = JSON.stringify({ uid, ...rest });
    const fingerprint = hash('sha1', item, 'base64');
    const key = `groups|${uid}`;
    let known = times.get(key);
    if (known?.fingerprint !== fingerprint) {
      known = { fingerprint, added: `,"createTime":"${stamp}","updateTime":"${stamp}"}` };
      times.set(key, known);
    }
    texts[i] = `${item.slice(0, -1)}${known.added}`;
    uids[i] = uid;
  }
  const order = Array.from(uids.keys()).sort((a, b) => {
    const x = uids[a] as string;
    const y = uids[b] as string;
    return x === y ? 0 : x < y ? -1 : 1;
  });
  return { json: order.map((i) => texts[i]).join(','), count: n };
}
