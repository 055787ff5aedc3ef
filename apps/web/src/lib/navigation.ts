/**
 * Navigation for code outside React components (auth flow, HTTP client). The app registers the
 * router's navigate at start; before that (and in tests) the browser location is used.
 */
type Navigate = (to: string | number) => void;

const browserNavigate: Navigate = (to) => {
  if (typeof to === 'number') window.history.go(to);
  else window.location.assign(to);
};

let current: Navigate = browserNavigate;

export function setNavigator(navigate: Navigate | null): void {
  current = navigate ?? browserNavigate;
}

export function navigateTo(path: string): void {
  current(path);
}

export function goBack(): void {
  current(-1);
}
