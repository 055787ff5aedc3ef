import { Box, NavLink, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useRole } from '@/lib/auth.ts';
import { useState, type ReactNode } from 'react';
import { menuFor } from './menu.ts';

function MenuGroup({ label, icon, open, children }: { label: string; icon: ReactNode; open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      leftSection={icon}
      defaultOpened={open}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset={28}
      data-testid="menu-group"
    >
      {children}
    </NavLink>
  );
}

/**
 * The two sections of the sidebar, filtered by the signed-in user's role. A group's toggle is a
 * button (Tab reaches it, Enter or Space opens it) that says whether it is open.
 */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const role = useRole();
  const { pathname } = useLocation();
  const sections = menuFor(role);

  return (
    <Box h="100%" style={{ overflowY: 'auto' }}>
      <nav aria-label="Main menu">
        {sections.map((section) => (
          <div key={section.title}>
            <Text size="xs" fw={700} c="dimmed" px="sm" pt="md" pb={4}>
              {section.title}
            </Text>
            {section.entries.map((entry) => {
              const Icon = entry.icon;
              if (entry.to) {
                return (
                  <NavLink
                    key={entry.label}
                    component={Link}
                    to={entry.to}
                    label={entry.label}
                    leftSection={<Icon size={18} stroke={1.5} />}
                    active={pathname === entry.to}
                    onClick={onNavigate}
                  />
                );
              }
              const links = entry.links ?? [];
              return (
                <MenuGroup key={entry.label} label={entry.label} icon={<Icon size={18} stroke={1.5} />} open={links.some((link) => link.to === pathname)}>
                  {links.map((link) => (
                    <NavLink
                      key={link.to}
                      component={Link}
                      to={link.to}
                      label={link.label}
                      active={pathname === link.to}
                      onClick={onNavigate}
                    />
                  ))}
                </MenuGroup>
              );
            })}
          </div>
        ))}
      </nav>
    </Box>
  );
}
