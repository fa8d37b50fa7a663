import { describe, expect, it } from 'vitest';
import { PartList } from '../../src/app/part-list.js';

describe('the part list: what opened last closes first', () => {
  it('closes in reverse order, once; a part that fails to close is said and the ones it used still close', async () => {
    const closed: string[] = [];
    const failed: string[] = [];
    const parts = new PartList({ closed: (name) => closed.push(name), failed: (name) => failed.push(name) });
    const order: string[] = [];
    parts.add({ name: 'stores', close: () => void order.push('stores') });
    parts.add({
      name: 'backends',
      close: async () => {
        order.push('backends');
        throw new Error('a pool would not close');
      },
    });
    parts.add({ name: 'shadowing', close: async () => void order.push('shadowing') });
    await Promise.all([parts.close(), parts.close()]);
    await parts.close();
    expect(order).toEqual(['shadowing', 'backends', 'stores']);
    expect(closed).toEqual(['shadowing', 'stores']);
    expect(failed).toEqual(['backends']);
  });
});
