import { describe, expect, it } from 'vitest';
import { centsToKes, centsToKesOrNull, compactKes, formatCents, formatKes, formatKesShort, kesFixed, kesToCents, wholeShillingsUp } from '@betdesk/contract';

/** The one cents/KES helper (decision 027) reads every text exactly as the copies it replaced. */
describe('money helper', () => {
  it('converts cents as the database returns them to KES, and KES input to cents', () => {
    expect([centsToKes(123450), centsToKes('123450'), centsToKes(123450n), centsToKes(null)]).toEqual([1234.5, 1234.5, 1234.5, 0]);
    expect([centsToKesOrNull(null), centsToKesOrNull('5')]).toEqual([null, 0.05]);
    expect([kesToCents(1234.5), kesToCents(0.29), kesToCents(19.99)]).toEqual([123450, 29, 1999]);
  });

  it('rounds up to whole shillings for M-Pesa, which takes no cents', () => {
    expect([wholeShillingsUp(9950), wholeShillingsUp(10000), wholeShillingsUp(1), wholeShillingsUp(0)]).toEqual([10000, 10000, 100, 0]);
  });

  it('writes exact two-decimal figures, with or without separators, for any size', () => {
    expect([kesFixed(123450), kesFixed(-5), kesFixed(0), kesFixed('7'), kesFixed(null)]).toEqual(['1234.50', '-0.05', '0.00', '0.07', '0.00']);
    expect(kesFixed('123456789012345678901', { grouped: true })).toBe('1,234,567,890,123,456,789.01');
    for (const c of [1, 99, 1050, 123456, 9_999_999, -250]) expect(kesFixed(c)).toBe((c / 100).toFixed(2));
  });

  it('formats for screens, phones and public pages as before', () => {
    expect(formatKes(1250)).toBe(formatCents(125000));
    expect(formatKes(1250)).toMatch(/^KES\s1,250\.00$/);
    expect([compactKes(150000), compactKes(9950), compactKes(10000)]).toEqual(['KES 1500', 'KES 99.50', 'KES 100']);
    expect([formatKesShort(1250), formatKesShort(99.5), formatKesShort(300)]).toEqual(['KES 1,250', 'KES 99.5', 'KES 300']);
  });
});
