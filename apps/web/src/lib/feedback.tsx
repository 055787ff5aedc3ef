import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@betdesk/contract';
import type { Presentation } from './http-catalogue.ts';
import { createStore } from './store.ts';

/** Shows what the catalogue decided: toasts through Mantine notifications, popups through modals. */
export function present(presentation: Presentation): void {
  switch (presentation.kind) {
    case 'none':
      return;
    case 'success-toast':
      showToast('success', presentation.text);
      return;
    case 'error-toast':
      showToast('error', presentation.text);
      return;
    case 'success-popup':
      showPopup('success', presentation.title, presentation.text);
      return;
    case 'error-popup':
      showPopup('error', presentation.title, presentation.text);
  }
}

/** Whether the toast host is wanted (it loads with the first toast, not with the first screen). */
export const toastsHostStore = createStore(false);

/** The toasts on screen: several requests failing the same way (a bad token) show one toast, not one each. */
const shownAt = new Map<string, number>();

export function showToast(tone: 'success' | 'error', message: string): void {
  const key = `${tone}:${message}`;
  const now = Date.now();
  const last = shownAt.get(key);
  if (last !== undefined && now - last < TOAST_DURATION_MS) return;
  shownAt.set(key, now);
  toastsHostStore.set(true);
  notifications.show({
    message,
    color: tone === 'success' ? 'green' : 'red',
    autoClose: TOAST_DURATION_MS,
  });
}

/**
 * Mantine's modal host (and the positioning code it brings) is not in the first load: it is loaded
 * the first time a popup or a confirmation is asked for, and what was asked meanwhile opens then.
 */
export const modalsHostStore = createStore<'off' | 'loading' | 'ready'>('off');
const waitingForHost: (() => void)[] = [];

export function withModals(open: () => void): void {
  if (modalsHostStore.get() === 'ready') {
    open();
    return;
  }
  waitingForHost.push(open);
  if (modalsHostStore.get() === 'off') modalsHostStore.set('loading');
}

/** Called by the host once mounted. */
export function modalsHostReady(): void {
  modalsHostStore.set('ready');
  for (const open of waitingForHost.splice(0)) open();
}

let popupCount = 0;

function showPopup(tone: 'success' | 'error', title: string, text: string): void {
  popupCount += 1;
  const modalId = `http-popup-${popupCount}`;
  withModals(() => openPopup(modalId, tone, title, text));
}

function openPopup(modalId: string, tone: 'success' | 'error', title: string, text: string): void {
  modals.open({
    modalId,
    title,
    centered: true,
    children: (
      <>
        <Text size="sm" data-testid={`${tone}-popup-text`}>
          {text}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button color={tone === 'success' ? 'green' : 'red'} onClick={() => modals.close(modalId)}>
            OK
          </Button>
        </Group>
      </>
    ),
  });
}

/**
 * The go-back state of spec 8: set when a response body carries goBack, goback or back; the
 * layout consumes it by stepping back in history.
 */
export const goBackStore = createStore(false);
