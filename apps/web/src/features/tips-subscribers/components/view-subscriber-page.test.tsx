import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ViewSubscriberPage } from './view-subscriber-page.tsx';
import { answerRequests, jsonResponse, renderAt } from '@/testing/test-utils.tsx';

answerRequests(() => jsonResponse(404, { message: 'Not found', info: 'This record does not exist.' }), { quiet: true });

const at = (url: string, path: string, element: React.ReactElement) => renderAt(url, element, path);

describe('a detail page whose record cannot be loaded', () => {
  it('says the subscriber could not be loaded instead of spinning', async () => {
    at('/tips/subscribers/view/99999', '/tips/subscribers/view/:subscriber_id', <ViewSubscriberPage />);
    expect(await screen.findByText('This subscriber could not be loaded.')).toBeInTheDocument();
  });
});
