import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AddPostPage } from './components/add-post-page.tsx';
import { AllPostsPage } from './components/all-posts-page.tsx';
import { EditPostPage } from './components/edit-post-page.tsx';
import { ViewPostPage } from './components/view-post-page.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.posts.add', path: paths.tips.addPost, element: <AddPostPage /> },
  { id: 'tips.posts.view', path: '/tips/posts/view/:post_id', element: <ViewPostPage /> },
  { id: 'tips.posts.edit', path: '/tips/posts/edit/:post_id', element: <EditPostPage /> },
  { id: 'tips.posts.all', path: paths.tips.allPosts, element: <AllPostsPage /> },
];
