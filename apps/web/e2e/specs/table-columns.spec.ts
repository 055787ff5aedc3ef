import { expect, test, type Page } from '@playwright/test';
import { admin, anAgent, signIn } from '../support.ts';

/**
 * Issue 53 item 3: at 1366 px no figure of a list is cut ("KES 3,500.…", "Sender …") and no table
 * is wider than its box (History, ARPU and net revenue retention past the edge). Measured with the
 * DOM on every list screen that shows money or counts.
 */

const SCREENS = [
  '/tax',
  '/mpesa',
  '/mpesa/unclaimed',
  '/reports?report=retention',
  '/reports?report=promo-codes',
  '/subscriptions',
  '/tips/subscriptions/all',
  '/bonuses',
  '/bets/closed',
  '/clients',
  '/agents',
];

/** A money amount, a count or a rate: "KES 1,250.00", "-KES 20.00", "1,204", "37.5%", "KES 12.00 VAT". */
const FIGURE = /(KES\s?-?[\d,]+(\.\d+)?|^[−-]?\d[\d,]*(\.\d+)?\s*%?$)/;

interface Cut {
  table: string;
  what: string;
}

/** Every cut header or figure cell, and every table wider than its box, on the page as it is. */
function findCuts(page: Page): Promise<Cut[]> {
  return page.evaluate((figure) => {
    const isFigure = new RegExp(figure);
    const cuts: { table: string; what: string }[] = [];
    document.querySelectorAll<HTMLTableElement>('[data-testid="table"]').forEach((table, t) => {
      const name = table.closest('[data-testid]:not([data-testid="table"]):not([data-testid="table-scroller"])')?.getAttribute('data-testid') ?? `table ${t}`;
      const box = table.closest<HTMLElement>('[data-testid="table-scroller"]');
      if (!box || box.offsetParent === null) return; // not shown (another tab)
      if (table.scrollWidth > box.clientWidth + 1) cuts.push({ table: name, what: `table ${table.scrollWidth} px in a ${box.clientWidth} px box` });
      if (box.getBoundingClientRect().right > window.innerWidth + 1) cuts.push({ table: name, what: `box ends at ${Math.round(box.getBoundingClientRect().right)} px, past the window` });
      const cut = (cell: HTMLElement) => cell.scrollWidth > cell.clientWidth + 1 || (cell.textContent ?? '').trim().endsWith('…');
      table.querySelectorAll<HTMLElement>('th').forEach((th) => {
        if (cut(th)) cuts.push({ table: name, what: `header "${(th.textContent ?? '').trim()}" (${th.scrollWidth} px in ${th.clientWidth})` });
      });
      table.querySelectorAll<HTMLElement>('tbody td').forEach((td) => {
        const text = (td.textContent ?? '').trim();
        if (text !== '' && isFigure.test(text) && cut(td)) cuts.push({ table: name, what: `cell "${text}" (${td.scrollWidth} px in ${td.clientWidth})` });
      });
    });
    return cuts;
  }, FIGURE.source);
}

test.describe('Columns at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('no money or count is cut and no table is wider than its box on any list', async ({ page }) => {
    test.setTimeout(120_000);
    await anAgent(page.request);
    await signIn(page, admin);
    const found: Record<string, Cut[]> = {};
    for (const screen of SCREENS) {
      await page.goto(screen);
      await expect(page.getByTestId('table-row').first(), screen).toBeVisible();
      // Every table of the screen has its rows (the Retention tab holds three, loaded one by one).
      await expect(page.locator('[data-testid="table"] [role="status"]'), screen).toHaveCount(0);
      // The fit columns are measured after the rows are drawn: let the layout settle.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/columns-${screen.replace(/\W+/g, '-')}-1366.png`, fullPage: true });
      const cuts = await findCuts(page);
      if (cuts.length > 0) found[screen] = cuts;
    }
    expect(found).toEqual({});
  });
});

test.describe('Columns at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the same lists are cards or scroll inside their own box: the page never scrolls sideways', async ({ page }) => {
    test.setTimeout(120_000);
    await anAgent(page.request);
    await signIn(page, admin);
    const wide: Record<string, number> = {};
    for (const screen of SCREENS) {
      await page.goto(screen);
      await expect(page.getByTestId('table-row').first(), screen).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 375) wide[screen] = width;
    }
    expect(wide).toEqual({});
  });
});
