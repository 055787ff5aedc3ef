import { lazy, Suspense, useState } from 'react';
import { Box, Button, Kbd } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

// The dialog, its query and the contract's search schema load on the first opening (decision 067):
// the top bar adds a button to the first load, not the search.
const SearchDialog = lazy(() => import('./search-dialog.tsx'));

/** "Search" in the top bar, and `/` or Ctrl-K (⌘K) from anywhere outside a field. */
export function SearchButton() {
  const [open, setOpen] = useState(false);
  useHotkeys([
    ['/', () => setOpen(true)],
    ['mod+K', () => setOpen(true)],
  ]);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconSearch size={16} />}
        onClick={() => setOpen(true)}
        aria-label="Search"
        aria-keyshortcuts="/ Control+K"
        px={{ base: 'xs', xs: 'md' }}
        data-testid="search-open"
      >
        <Box component="span" visibleFrom="sm">
          Search <Kbd size="xs">/</Kbd>
        </Box>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SearchDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
