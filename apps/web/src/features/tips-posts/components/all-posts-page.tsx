import { Anchor, Card, Image, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { coverImageUrl, type PostRow } from '@betdesk/contract';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate } from '@/lib/format.ts';
import defaultCover from '../assets/default-cover.svg';
import { usePosts } from '../api/get-posts.ts';

const columns: DataTableColumn<PostRow>[] = [
  {
    key: 'title',
    header: 'Title',
    card: 'title',
    render: (p) => (
      <Anchor component={Link} to={`/tips/posts/view/${p.id}`}>
        {p.title}
      </Anchor>
    ),
  },
  { key: 'post_category', header: 'Category' },
  { key: 'match_date', header: 'Match Date', render: (p) => formatDate(`${p.match_date}T12:00:00Z`), width: WIDTH.date, fit: true },
  {
    key: 'cover',
    header: 'Cover Photo',
    width: 110,
    render: (p) => (
      <Image
        src={p.image_name ? coverImageUrl(p.image_name) : defaultCover}
        alt={p.image_title ?? 'Default cover image'}
        w={72}
        h={36}
        radius="sm"
      />
    ),
  },
  { key: 'bets', header: 'Viewed in' },
];

/** /tips/posts/all: the Web Tips table, remote-paged. */
export function AllPostsPage() {
  const table = useTableState('posts');
  const posts = usePosts(table.query);
  return (
    <Stack>
      <Title order={1} size="h2">Web Tips</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={posts.data?.posts ?? []}
          rowKey={(p) => p.id}
          loading={posts.isFetching}
          rowHeight={52}
          {...table.listProps('Title, then Enter', posts.data)}
          data-testid="posts-table"
        />
      </Card>
    </Stack>
  );
}
