import { Card, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { LoadState } from '@/components/load-state.tsx';
import { showToast } from '@/lib/feedback.tsx';
import { useAddPost } from '../api/add-post.ts';
import { usePostForm } from '../api/get-post-form.ts';
import { emptyPost, PostForm } from './post-form.tsx';

/** /tips/posts/add: write a web tip post; saving publishes it, goes to its view and says so in a toast. */
export function AddPostPage() {
  const choices = usePostForm();
  const add = useAddPost();
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={1} size="h2">Add Post</Title>
      <Card withBorder>
        {choices.data ? (
          <PostForm
            choices={choices.data}
            initial={emptyPost}
            submitLabel="Save Post"
            onSubmit={async (body) => {
              const { post } = await add.mutateAsync(body);
              await navigate(`/tips/posts/view/${post.id}`);
              // The view that opens says nothing of its own: the toast says the post is out.
              showToast('success', 'Post published');
            }}
          />
        ) : (
          <LoadState failed={choices.isError} what="form" />
        )}
      </Card>
    </Stack>
  );
}
