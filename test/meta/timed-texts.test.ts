import { describe, expect, it } from 'vitest';
import { metaEntry } from '../../src/meta/meta-store.js';
import type { OperationContext } from '../../src/operations/operation-context.js';
import { timedText, timedTexts } from '../../src/operations/resource-times.js';

// timedTexts reads only the resource's time fields
const withFields = (meta: { created?: string; updated?: string } | undefined) => ({ resource: { meta } }) as unknown as OperationContext;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');

describe('item texts given their times', () => {
  it('adds each item its own times, however the items of one read alternate between them', () => {
    const timed = timedTexts(withFields({ created: 'createTime', updated: 'updateTime' }));
    const first = metaEntry(T0, T0, 'f');
    const moved = metaEntry(T0, T0 + 1000, 'g');
    expect(timed('{"uid":"a"}', first)).toBe('{"uid":"a","createTime":"2026-11-01T00:00:00.000Z","updateTime":"2026-11-01T00:00:00.000Z"}');
    expect(timed('{"uid":"b"}', moved)).toBe('{"uid":"b","createTime":"2026-11-01T00:00:00.000Z","updateTime":"2026-11-01T00:00:01.000Z"}');
    expect(timed('{"uid":"c"}', first)).toBe('{"uid":"c","createTime":"2026-11-01T00:00:00.000Z","updateTime":"2026-11-01T00:00:00.000Z"}');
    expect(timed('{}', moved)).toBe('{"createTime":"2026-11-01T00:00:00.000Z","updateTime":"2026-11-01T00:00:01.000Z"}');
    expect(timed('{"uid":"d"}', undefined)).toBe('{"uid":"d"}');
    for (const text of ['{"uid":"a"}', '{}']) expect(JSON.parse(timed(text, moved))).toMatchObject({ updateTime: '2026-11-01T00:00:01.000Z' });
  });
  it('adds only the fields the resource has, and nothing for a resource v1 keeps times for', () => {
    const times = metaEntry(T0, T0 + 1000, 'f');
    expect(timedText(withFields({ updated: 'updateTime' }), '{"uid":"a"}', times)).toBe('{"uid":"a","updateTime":"2026-11-01T00:00:01.000Z"}');
    expect(timedText(withFields({}), '{"uid":"a"}', times)).toBe('{"uid":"a"}');
    expect(timedText(withFields(undefined), '{"uid":"a"}', times)).toBe('{"uid":"a"}');
  });
});
