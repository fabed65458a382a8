import { BETWEEN_ROW_SLOTS, dealToGaps, placedHomeSlots } from '../../shared/home-ad-slots';
import type { Advertisement } from '../../shared/types/entities';

const ad = (id: number): Advertisement => ({ id, type: 1, title: `广告${id}`, image: `/i/${id}.jpg`, video: '', href: '' });

describe('home banner slots between the rows', () => {
  it('spreads every slot over the gaps in order, earlier gaps taking the extra one', () => {
    expect(dealToGaps(BETWEEN_ROW_SLOTS, 4)).toEqual([
      [8, 9, 10],
      [11, 12],
      [13, 14],
      [15, 16],
    ]);
    expect(dealToGaps(BETWEEN_ROW_SLOTS, 3)).toEqual([
      [8, 9, 10],
      [11, 12, 13],
      [14, 15, 16],
    ]);
    expect(dealToGaps([8, 9], 4)).toEqual([[8], [9], [], []]);
  });

  it('keeps every slot when there is no row at all (one gap) or more gaps than slots', () => {
    expect(dealToGaps(BETWEEN_ROW_SLOTS, 0)).toEqual([[...BETWEEN_ROW_SLOTS]]);
    expect(dealToGaps(BETWEEN_ROW_SLOTS, 12).flat()).toEqual([...BETWEEN_ROW_SLOTS]);
  });
});

describe('home slots kept in the page state', () => {
  it('keeps 1–6 and 8–16 with ads, in position order; drops 7, unknown positions and empty slots', () => {
    const slots = [16, 7, 3, 17, 0, 9, 12].map((position) => ({ position, ads: [ad(position)] }));
    slots.push({ position: 5, ads: [] });
    expect(placedHomeSlots(slots).map((slot) => slot.position)).toEqual([3, 9, 12, 16]);
  });
});
