import { lazy, memo } from 'react';
import { MountOnce } from '../../components/mount-once';
import { useCatalog } from '../../stores/catalog-store';

// The skill drawer lives in the shell, not on the Skills page: a skill row on the Assistants page,
// a launch refusal, the skill picker and the import summary all open the same drawer where they are.
// It is loaded when a skill is first opened (file tree, tabs, Markdown, security panel): the first
// paint of a big catalog needs only the list.
const SkillDrawer = lazy(() => import('./skill-drawer').then((m) => ({ default: m.SkillDrawer })));

export const SkillDrawerHost = memo(function SkillDrawerHost() {
  const open = useCatalog((s) => s.openId !== null && s.openId !== undefined);
  return (
    <MountOnce when={open}>
      <SkillDrawer />
    </MountOnce>
  );
});
