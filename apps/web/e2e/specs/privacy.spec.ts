import { expect, test } from '@playwright/test';
import { admin, shot, signIn, simulatePayment, simulateSms } from '../support.ts';

test.describe('Privacy (Data Protection Act)', () => {
  test("an admin sees what is held about a phone, records consent, erases the person, and runs the breach clock", async ({ page }) => {
    test.slow(); // five screens in one story
    const digits = Date.now().toString().slice(-6);
    const phone = `0722${digits}`;
    const name = `PRIVACY PERSON ${digits}`;
    simulatePayment(['--amount', '37', '--account', 'D2', '--phone', phone, '--msisdn-mode', 'plain', '--name', name, '--receipt', `PRV${digits}`]);
    simulateSms(['--from', phone, '--text', 'Hello, is there a tip today?']);

    await signIn(page, admin);
    await page.goto('/privacy');
    await page.getByLabel('Phone').fill(phone);
    await page.getByRole('button', { name: 'Show what we hold' }).click();
    const subject = page.getByTestId('privacy-subject');
    await expect(subject.getByRole('row').filter({ hasText: 'M-Pesa payments' })).toContainText('1');
    await expect(subject.getByRole('row').filter({ hasText: 'SMS received from them' })).toContainText('1');
    const consent = page.getByTestId('privacy-consent');
    await expect(consent).toContainText('Not given');

    await consent.getByLabel('How they said it').fill('Said yes on a call');
    await consent.getByRole('button', { name: 'Record' }).click();
    await expect(consent).toContainText('Given');
    await shot(page, 'privacy-person');

    await subject.getByRole('button', { name: 'Erase this person' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this person?' });
    await dialog.getByLabel('Reason').fill('Asked by phone');
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await expect(dialog).toBeHidden();
    await expect(subject).toContainText('Erased');
    await expect(subject.getByRole('row').filter({ hasText: 'M-Pesa payments' })).toContainText('0');

    await page.goto('/tips/subscribers/all');
    await page.getByTestId('table-search').fill(name);
    await page.getByTestId('table-search').press('Enter');
    await expect(page.getByText(name)).toHaveCount(0);

    await page.goto('/privacy');
    await page.getByRole('tab', { name: 'Breach register' }).click();
    await page.getByLabel('Discovered').fill('2026-11-25T08:00');
    await page.getByLabel('People affected').fill('40');
    await page.getByLabel('What happened').fill('A phone with an export was lost');
    await page.getByLabel('Data concerned').fill('Names and phones');
    await page.getByRole('button', { name: 'Record breach' }).click();
    await expect(page.getByTestId('privacy-breaches')).toContainText('A phone with an export was lost');
    await shot(page, 'privacy-breaches');
    await page.goto('/dashboard');
    await expect(page.getByTestId('privacy-alerts')).toContainText('tell the Data Commissioner by');

    // Every read of personal data under one filter of the audit screen: the export above is there.
    await page.goto('/audit');
    await page.getByLabel('Sensitive reads only').check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/sensitive=1/);
    const table = page.getByTestId('audit-table');
    await expect(table.getByText('Privacy: export').first()).toBeVisible();
    // The unfiltered rows stay on screen until the filtered page arrives: wait for it, then every
    // row shown is a read of personal data.
    const sensitiveOnly = async () => {
      const actions = await table.locator('.mantine-Badge-root').allTextContents();
      return actions.length > 0 && actions.every((a) => a === 'Privacy: export' || a === 'Client: passwords reveal');
    };
    await expect.poll(sensitiveOnly).toBe(true);
    await shot(page, 'audit-sensitive');
  });
});
