import { NavLink, ScrollArea, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useRole } from '@/lib/auth.ts';
import { menuFor } from './menu.ts';

/** The two sections of the sidebar, filtered by the signed-in user's role. */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const role = useRole();
  const { pathname } = useLocation();
  const sections = menuFor(role);

  return (
    <ScrollArea type="auto" h="100%">
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
                <NavLink
                  key={entry.label}
                  label={entry.label}
                  leftSection={<Icon size={18} stroke={1.5} />}
                  defaultOpened={links.some((link) => link.to === pathname)}
                  childrenOffset={28}
                >
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
                </NavLink>
              );
            })}
          </div>
        ))}
      </nav>
    </ScrollArea>
  );
}
