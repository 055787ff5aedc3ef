import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { EditPostPage } from './edit-post-page.tsx';
import { ViewPostPage } from './view-post-page.tsx';
import { answerRequests, jsonResponse, renderAt } from '@/testing/test-utils.tsx';

answerRequests(() => jsonResponse(404, { message: 'Not found', info: 'This record does not exist.' }), { quiet: true });

const at = (url: string, path: string, element: React.ReactElement) => renderAt(url, element, path);

describe('a detail page whose record cannot be loaded', () => {
  it('says the post could not be loaded instead of spinning (view)', async () => {
    at('/tips/posts/view/99999', '/tips/posts/view/:post_id', <ViewPostPage />);
    expect(await screen.findByText('This post could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
  });

  it('says the post could not be loaded instead of spinning (edit)', async () => {
    at('/tips/posts/edit/99999', '/tips/posts/edit/:post_id', <EditPostPage />);
    expect(await screen.findByText('This post could not be loaded.')).toBeInTheDocument();
  });
});
