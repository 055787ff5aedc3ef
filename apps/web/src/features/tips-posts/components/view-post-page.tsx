import { Badge, Button, Card, Group, Image, Stack, Text, Title, TypographyStylesProvider } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { betCategoryLabel, confirmTexts, coverImageUrl } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { paths } from '@/config/paths.ts';
import { formatDate } from '@/lib/format.ts';
import defaultCover from '../assets/default-cover.svg';
import { useDeletePost } from '../api/delete-post.ts';
import { usePost } from '../api/get-post.ts';
import classes from './post-content.module.css';
import { HistoryLink } from '@/components/history-link.tsx';
import { PostTickets } from './post-tickets.tsx';

/** /tips/posts/view/{post_id}: cover, title, category, cover title, match date, bets, content. */
export function ViewPostPage() {
  const postId = Number(useParams().post_id);
  const { data, isError } = usePost(postId);
  const trash = useDeletePost();
  const navigate = useNavigate();
  if (!data) return <LoadState failed={isError} what="post" />;
  const { post } = data;
  const trashPost = async () => {
    const confirmed = await confirmTrash({ message: confirmTexts.trashPost, confirmLabel: confirmTexts.trashPostButton });
    if (!confirmed) return;
    await trash.mutateAsync(post.id);
    await navigate(paths.tips.allPosts);
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">{post.title}</Title>
        <Group>
          <Button component={Link} to={`/tips/posts/edit/${post.id}`}>
            Edit Post
          </Button>
          <Button color="red" variant="light" onClick={() => void trashPost()} loading={trash.isPending}>
            Delete Post
          </Button>
          <HistoryLink entity="tips_post" entityId={post.id} />
        </Group>
      </Group>
      <Card withBorder padding={0}>
        <Image
          src={post.image_name ? coverImageUrl(post.image_name) : defaultCover}
          alt={post.image_title ?? 'Default cover image'}
          h={260}
          fit="cover"
        />
        <Stack p="md" gap="xs">
          <Group gap="xl">
            <Text size="sm">
              <b>Category:</b> {post.post_category}
            </Text>
            <Text size="sm">
              <b>Cover image:</b> {post.image_title ?? 'Default image'}
            </Text>
            <Text size="sm">
              <b>Match date:</b> {formatDate(`${post.match_date}T12:00:00Z`)}
            </Text>
          </Group>
          <Group gap="xs">
            <Text size="sm" fw={700}>
              Viewed in:
            </Text>
            {post.post_bets.map((bet) => (
              <Badge key={bet.id} variant="light">
                {betCategoryLabel(bet)}
              </Badge>
            ))}
          </Group>
        </Stack>
      </Card>
      <Card withBorder>
        <TypographyStylesProvider>
          {/* Sanitized by the server (allow-list) when it was saved. */}
          <div className={classes.content} data-testid="post-html" dangerouslySetInnerHTML={{ __html: post.content }} />
        </TypographyStylesProvider>
      </Card>
      {post.attach_ticket && <PostTickets tickets={data.tickets} />}
    </Stack>
  );
}
