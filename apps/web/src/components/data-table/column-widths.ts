/**
 * Widths of the columns whose content has a known size, so text columns (names, descriptions,
 * messages) get the rest of the row instead of every column an equal share.
 */
export const WIDTH = {
  date: 115,
  dateTime: 150,
  money: 115,
  phone: 118,
  ref: 108,
  status: 112,
  count: 110,
  duration: 90,
  /** One compact button. */
  action: 105,
} as const;
