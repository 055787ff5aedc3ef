import { describe, expect, it } from 'vitest';
import { describeResponse } from './http-catalogue.ts';

describe('describeResponse (spec 8 error catalogue)', () => {
  it.each([
    [401, 'You need to log in first.'],
    [403, 'You are not authorized to perform that action.'],
    [404, 'Path for processing your request was not found.'],
    [405, 'The resource you wanted to access seems not to be available.'],
    [422, 'Form data has some errors.'],
  ])('shows the default text of a %i as an error toast', (status, text) => {
    const d = describeResponse(status, {});
    expect(d.ok).toBe(false);
    expect(d.text).toBe(text);
    expect(d.presentation).toEqual({ kind: 'error-toast', text });
  });

  it('shows the default text of a 500 as an error popup titled Oops!', () => {
    expect(describeResponse(500, {}).presentation).toEqual({
      kind: 'error-popup',
      title: 'Oops!',
      text: 'A small system hitch has been encountered. The issue is being addressed and all should be well soon.',
    });
  });

  it("prefers the server's info to the default text", () => {
    const d = describeResponse(403, { info: 'Only admins can see users' });
    expect(d.presentation).toEqual({ kind: 'error-toast', text: 'Only admins can see users' });
  });

  it('gives any 5xx an error popup, with the info when there is one', () => {
    expect(describeResponse(503, { info: 'Down for maintenance' }).presentation).toEqual({
      kind: 'error-popup',
      title: 'Oops!',
      text: 'Down for maintenance',
    });
  });

  it('gives a 4xx with the popup flag an error popup', () => {
    expect(describeResponse(409, { info: 'Already claimed', popup: true }).presentation).toEqual({
      kind: 'error-popup',
      title: 'Oops!',
      text: 'Already claimed',
    });
  });

  it('has no default text for other statuses', () => {
    const d = describeResponse(409, {});
    expect(d.text).toBeNull();
    expect(d.presentation).toEqual({ kind: 'none' });
    expect(describeResponse(502, {}).text).toBeNull();
  });

  it('shows a 429 with its info as an error toast', () => {
    const info = 'Too many sign-in attempts. Please wait a few minutes and try again.';
    expect(describeResponse(429, { info }).presentation).toEqual({ kind: 'error-toast', text: info });
  });

  it('gives a 2xx with info a success toast, and with the popup flag a popup titled Awesome!', () => {
    expect(describeResponse(200, { info: 'Bet opened successfully' }).presentation).toEqual({
      kind: 'success-toast',
      text: 'Bet opened successfully',
    });
    expect(describeResponse(200, { info: 'Price saved successfully', popup: true }).presentation).toEqual({
      kind: 'success-popup',
      title: 'Awesome!',
      text: 'Price saved successfully',
    });
  });

  it("adds the server's message to a popup when it says more than the info", () => {
    const body = {
      info: 'User registered successfully',
      message: 'A temporary password has been sent by SMS to 0712345678.',
      popup: true,
    };
    expect(describeResponse(200, body).presentation).toEqual({
      kind: 'success-popup',
      title: 'Awesome!',
      text: 'User registered successfully. A temporary password has been sent by SMS to 0712345678.',
    });
    expect(describeResponse(200, { info: 'Saved', message: 'Saved', popup: true }).presentation).toMatchObject({ text: 'Saved' });
  });

  it('shows nothing for a 2xx without info', () => {
    const d = describeResponse(200, { users: [] });
    expect(d.ok).toBe(true);
    expect(d.presentation).toEqual({ kind: 'none' });
  });

  it.each(['goBack', 'goback', 'back'])('sets the go-back state when the body has %s', (key) => {
    expect(describeResponse(404, { [key]: true }).goBack).toBe(true);
    expect(describeResponse(200, { [key]: true }).goBack).toBe(true);
  });

  it('does not go back otherwise', () => {
    expect(describeResponse(404, {}).goBack).toBe(false);
  });

  it('calls a response with info or code a custom error', () => {
    expect(describeResponse(400, { info: 'x' }).customError).toBe(true);
    expect(describeResponse(400, { code: 'E_CLAIMED' }).customError).toBe(true);
    expect(describeResponse(400, { message: 'x' }).customError).toBe(false);
  });

  it('marks a 401 as unauthorized and nothing else', () => {
    expect(describeResponse(401, {}).unauthorized).toBe(true);
    expect(describeResponse(403, {}).unauthorized).toBe(false);
  });

  it('carries the field errors of a 422', () => {
    const d = describeResponse(422, {
      message: 'Form data has some errors.',
      info: 'Form data has some errors.',
      errors: { stake: ['The stake must be more than 0'], password_confirmation: ['The passwords do not match'] },
    });
    expect(d.fieldErrors).toEqual({
      stake: ['The stake must be more than 0'],
      password_confirmation: ['The passwords do not match'],
    });
  });

  it('reads a body that is not an object as an empty body', () => {
    expect(describeResponse(404, 'Not Found').text).toBe('Path for processing your request was not found.');
    expect(describeResponse(500, null).presentation.kind).toBe('error-popup');
  });
});
