/**
 * Widths of the columns whose content has a known size, so text columns (names, descriptions,
 * messages) get the rest of the row instead of every column an equal share.
 */
export const WIDTH = {
  date: 115,
  dateTime: 150,
  money: 135,
  phone: 125,
  ref: 125,
  status: 115,
  count: 115,
  duration: 95,
  /** One compact button. */
  action: 110,
} as const;
