import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileJournal } from '../../src/meta/file-journal.js';
import { MetaStore, fingerprintOf, metaEntry } from '../../src/meta/meta-store.js';
import { openMetaStore } from '../../src/meta/open-meta-store.js';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const fp = (name: string) => fingerprintOf(JSON.stringify({ uid: 'g', name }));
const journalPath = () => join(mkdtempSync(join(tmpdir(), 'v2proxy-meta-')), 'meta.jsonl');

describe('MetaStore', () => {
  it('first sight sets both times; the same record keeps them; a changed record moves updated only', () => {
    const store = new MetaStore();
    expect(store.observe([{ key: 'groups|g', fingerprint: fp('a') }], T0)).toEqual([
      { created: T0, updated: T0, fingerprint: expect.any(String), createdText: '2026-11-01T00:00:00.000Z', updatedText: '2026-11-01T00:00:00.000Z' },
    ]);
    expect(store.observe([{ key: 'groups|g', fingerprint: fp('a') }], T0 + 1000)[0]).toMatchObject({ created: T0, updated: T0 });
    expect(store.observe([{ key: 'groups|g', fingerprint: fp('b') }], T0 + 2000)[0]).toMatchObject({ created: T0, updated: T0 + 2000 });
    expect(store.observe([{ key: 'groups|g', fingerprint: fp('b') }], T0 + 3000)[0]).toMatchObject({ created: T0, updated: T0 + 2000 });
  });

  it("an unseen record's history starts at v1's own creation time when it has one", () => {
    const store = new MetaStore();
    expect(store.observe([{ key: 'repos|r', fingerprint: fp('r'), since: T0 - 5000 }], T0)[0]).toMatchObject({ created: T0 - 5000, updated: T0 - 5000 });
  });

  it('a write through the proxy is exact, and the next read adopts its record without moving updated', async () => {
    const store = new MetaStore();
    expect(await store.written('groups|g', T0, true)).toMatchObject({ created: T0, updated: T0 });
    // the read after the write may look different from the write answer: no move
    expect(store.observe([{ key: 'groups|g', fingerprint: fp('a') }], T0 + 10)[0]).toMatchObject({ created: T0, updated: T0 });
    expect(await store.written('groups|g', T0 + 500, false)).toMatchObject({ created: T0, updated: T0 + 500 });
    await store.removed('groups|g');
    expect(store.size).toBe(0);
  });
});

describe('file journal (META_STORE=file:<path>)', () => {
  it('survives a restart with every time as it was', async () => {
    const path = journalPath();
    const first = await openMetaStore(`file:${path}`, () => undefined);
    first.observe(
      [
        { key: 'groups|a', fingerprint: fp('a') },
        { key: 'groups|b', fingerprint: fp('b') },
      ],
      T0,
    );
    await first.written('groups|c', T0 + 5, true);
    await first.removed('groups|b');
    await first.close();
    const again = await openMetaStore(`file:${path}`, () => undefined);
    expect(again.size).toBe(2);
    expect(again.observe([{ key: 'groups|a', fingerprint: fp('a') }], T0 + 99)[0]).toMatchObject({ created: T0, updated: T0 });
    expect(await again.written('groups|c', T0 + 100, false)).toMatchObject({ created: T0 + 5, updated: T0 + 100 });
    await again.close();
  });

  it('a crash mid-append (a torn last line) loses that line only, and the file is repaired for the next append', async () => {
    const path = journalPath();
    const store = await openMetaStore(`file:${path}`, () => undefined);
    await store.written('groups|a', T0, true);
    await store.close();
    appendFileSync(path, '{"k":"groups|b","c":17');
    const opened = await openFileJournal(path);
    expect([...opened.entries.keys()]).toEqual(['groups|a']);
    expect(opened.skipped).toBe(0);
    await opened.journal.append([{ key: 'groups|c', entry: metaEntry(T0, T0, null) }], true);
    await opened.journal.close();
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).k),
    ).toEqual(['groups|a', 'groups|c']);
  });

  it('damaged lines are skipped with a warning and the file is rewritten without them', async () => {
    const path = journalPath();
    writeFileSync(path, '{"k":"groups|a","c":1,"u":2,"f":null}\nnot json\n{"k":"groups|x","c":"soon"}\n{"__proto__":{"k":1}}\n');
    const warnings: string[] = [];
    const store = await openMetaStore(`file:${path}`, (m) => warnings.push(m));
    expect(store.size).toBe(1);
    expect(warnings).toEqual([`META_STORE ${path}: 3 damaged lines skipped; the file was rewritten without them`]);
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe('{"k":"groups|a","c":1,"u":2,"f":null}\n');
  });

  it('a journal of mostly superseded lines is compacted when opened', async () => {
    const path = journalPath();
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ k: 'groups|a', c: 1, u: i, f: null })).join('\n');
    writeFileSync(path, `${lines}\n`);
    const opened = await openFileJournal(path);
    expect(opened.entries.get('groups|a')).toMatchObject({ created: 1, updated: 2999, fingerprint: null });
    await opened.journal.close();
    expect(readFileSync(path, 'utf8')).toBe('{"k":"groups|a","c":1,"u":2999,"f":null}\n');
  });
});
