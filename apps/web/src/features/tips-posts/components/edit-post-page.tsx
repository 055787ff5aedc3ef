import { Card, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { LoadState } from '@/components/load-state.tsx';
import { showToast } from '@/lib/feedback.tsx';
import { usePostForEditing } from '../api/get-post-for-editing.ts';
import { useUpdatePost } from '../api/update-post.ts';
import { PostForm } from './post-form.tsx';

/** /tips/posts/edit/{post_id}: the post form, prefilled; saving goes to the view. */
export function EditPostPage() {
  const postId = Number(useParams().post_id);
  const editing = usePostForEditing(postId);
  const update = useUpdatePost();
  const navigate = useNavigate();
  const data = editing.data;
  return (
    <Stack>
      <Title order={1} size="h2">Edit Post</Title>
      <Card withBorder>
        {data ? (
          <PostForm
            choices={data}
            initial={{
              title: data.post.title,
              post_category_id: String(data.post.post_category_id),
              image_type_id: data.post.image_type_id === null ? null : String(data.post.image_type_id),
              match_date: data.post.match_date,
              selected_bets: data.post_bets.map((b) => String(b.id)),
              content: data.post.content,
              attach_ticket: data.post.attach_ticket,
            }}
            submitLabel="Save Post"
            onSubmit={async (body) => {
              await update.mutateAsync({ ...body, post_id: postId });
              await navigate(`/tips/posts/view/${postId}`);
              showToast('success', 'Post saved');
            }}
          />
        ) : (
          <LoadState failed={editing.isError} what="post" />
        )}
      </Card>
    </Stack>
  );
}
