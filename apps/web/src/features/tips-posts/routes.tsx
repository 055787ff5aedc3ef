import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.posts.add', handle: { title: 'Add post' }, path: paths.tips.addPost, lazy: screen(() => import('./components/add-post-page.tsx'), (m) => <m.AddPostPage />) },
  { id: 'tips.posts.view', handle: { title: 'View post' }, path: '/tips/posts/view/:post_id', lazy: screen(() => import('./components/view-post-page.tsx'), (m) => <m.ViewPostPage />) },
  { id: 'tips.posts.edit', handle: { title: 'Edit post' }, path: '/tips/posts/edit/:post_id', lazy: screen(() => import('./components/edit-post-page.tsx'), (m) => <m.EditPostPage />) },
  { id: 'tips.posts.all', handle: { title: 'All posts' }, path: paths.tips.allPosts, lazy: screen(() => import('./components/all-posts-page.tsx'), (m) => <m.AllPostsPage />) },
];
