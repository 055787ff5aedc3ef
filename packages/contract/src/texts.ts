/** Texts of the spec (section 8), word for word. Both sides read them from here. */

export const statusTexts = {
  401: 'You need to log in first.',
  403: 'You are not authorized to perform that action.',
  404: 'Path for processing your request was not found.',
  405: 'The resource you wanted to access seems not to be available.',
  422: 'Form data has some errors.',
  500: 'A small system hitch has been encountered. The issue is being addressed and all should be well soon.',
  /** The database does not answer (down, restarting): nothing was done; the same request works once it is back. */
  503: 'The service cannot reach its records just now. Please try again in a few minutes.',
} as const satisfies Record<number, string>;

export type StatusWithText = keyof typeof statusTexts;

export const successTexts = {
  betOpened: 'Bet opened successfully',
  passwordSaved: 'Done! You need to login again...',
  clientsAssigned: 'Clients assigned successfully',
  messageSent: 'Message sent successfully',
  profitSaved: 'Profit saved successfully',
  userRegistered: 'User registered successfully',
  userUpdated: 'User updated successfully',
  winningsUpdated: 'Winnings Updated successfully',
  smsSent: 'SMS sent successfully',
  priceSaved: 'Price saved successfully',
} as const;

export const errorTexts = {
  noClientSelected: 'No client is selected',
  tooManyLoginAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  wrongCredentials: 'These credentials do not match our records.',
} as const;

export const confirmTexts = {
  trash: 'Are you sure you want to do this!',
  trashPost: 'Trash? Are you sure you want to do this!',
  trashPostButton: 'Yes, trash it!',
} as const;

export const screenTexts = {
  signIn: 'Sign in to start your session',
  notFoundTitle: 'Oops! Page not found.',
  notFoundBody: 'We could not find the page you were looking for.',
  errorPopupTitle: 'Oops!',
  successPopupTitle: 'Awesome!',
} as const;
